package mcpserver_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-mcp/switchboard/demoserver"
	"github.com/switchboard-mcp/switchboard/domain"
)

// modernUpstream is the demo server over streamable HTTP, noting what
// each POST asked for in the headers a 2026-07-28 request carries (a
// handshake request has no Mcp-Method).
type modernUpstream struct {
	url string

	mu   sync.Mutex // guards sent
	sent []string   // "method name" of every POST; "" for one without Mcp-Method
}

func serveModernUpstream(t *testing.T) *modernUpstream {
	t.Helper()
	u := &modernUpstream{}
	h := server.NewStreamableHTTPServer(demoserver.New(demoserver.Options{}))
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			sent := ""
			if m := r.Header.Get(mcp.HeaderMethod); m != "" {
				sent = strings.TrimSpace(m + " " + r.Header.Get(mcp.HeaderName))
			}
			u.mu.Lock()
			u.sent = append(u.sent, sent)
			u.mu.Unlock()
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)
	u.url = hs.URL + "/mcp"
	return u
}

func (u *modernUpstream) requests() []string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return slices.Clone(u.sent)
}

// count is how many POSTs asked for sent ("method name").
func (u *modernUpstream) count(sent string) int {
	n := 0
	for _, s := range u.requests() {
		if s == sent {
			n++
		}
	}
	return n
}

// TestLegacyClientThroughGatewayToModernUpstream: the gateway's upstream is
// the demo server spoken to in 2026-07-28 (no initialize, every request
// named in its headers) and its client speaks 2025-11-25. The client sees
// the upstream's tools, gets a call's content exactly as the upstream
// returns it, and is asked the question of an input_required result as an
// elicitation, whose answer completes the call.
func TestLegacyClientThroughGatewayToModernUpstream(t *testing.T) {
	up := serveModernUpstream(t)
	f := realFixture(t, domain.ServerConfig{Name: "demo", Transport: domain.TransportHTTP,
		URL: up.url, AutoReconnect: true, ConnectTimeout: time.Minute})
	st, err := f.fleet.Status("demo")
	if err != nil || st.ProtocolVersion != mcp.ProtocolVersion20260728 {
		t.Fatalf("upstream status %+v, %v; want it connected with %s", st, err, mcp.ProtocolVersion20260728)
	}

	direct, err := dialURL(t.Context(), up.url, "direct", false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = direct.Close() })
	a := &answerer{name: "claude"}
	c := dialAnswering(t, f.srv.URL+"/mcp/demo", "", true, a, nil)
	if c.ProtocolVersion() != legacyVersion {
		t.Fatalf("the gateway's client negotiated %q, want %s", c.ProtocolVersion(), legacyVersion)
	}

	got, want := toolNames(t, c), toolNames(t, direct)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) || !slices.Contains(got, "echo") {
		t.Errorf("tools through the gateway %q, want the upstream's %q", got, want)
	}

	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"echo", map[string]any{"message": "héllo <b>&</b> 世界"}},
		{"tiny_image", nil},
		{"resource_links", nil},
	} {
		req := mcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = tc.tool, tc.args
		via, err := c.CallTool(t.Context(), req)
		if err != nil {
			t.Fatalf("%s through the gateway: %v", tc.tool, err)
		}
		straight, err := direct.CallTool(t.Context(), req)
		if err != nil {
			t.Fatalf("%s straight to the upstream: %v", tc.tool, err)
		}
		gotJSON, _ := json.Marshal(via.Content)
		wantJSON, _ := json.Marshal(straight.Content)
		if string(gotJSON) != string(wantJSON) || via.IsError != straight.IsError {
			t.Errorf("%s through the gateway (error %v):\n %s\nwant the upstream's (error %v):\n %s",
				tc.tool, via.IsError, gotJSON, straight.IsError, wantJSON)
		}
	}

	before := up.count("tools/call confirm_action")
	text, isErr := callText(t, c, "confirm_action", map[string]any{"action": "ship it"})
	if isErr || !strings.Contains(text, `"action":"accept"`) || !strings.Contains(text, `"by":"claude"`) {
		t.Errorf("confirm_action: got %q (error %v), want the client's accepting answer", text, isErr)
	}
	a.mu.Lock()
	if len(a.elicits) != 1 || a.elicits[0].Message != "Go ahead and ship it?" {
		t.Errorf("the client was asked %+v, want once, as the upstream asked", a.elicits)
	}
	a.mu.Unlock()
	// The first call got input_required; the second carried the answer.
	if n := up.count("tools/call confirm_action") - before; n != 2 {
		t.Errorf("the upstream was sent confirm_action %d times, want 2 (the ask, then the answer)", n)
	}
	invs, err := f.inv.List(t.Context(), scope, domain.InvocationFilter{Tool: "confirm_action"})
	if err != nil || len(invs) != 1 {
		t.Fatalf("cards of confirm_action: %v, %v", invs, err)
	}
	if asks := invs[0].Asks; len(asks) != 1 || asks[0].Method != domain.MethodElicit || asks[0].Outcome != domain.AskAnswered {
		t.Errorf("card asks %+v, want one elicitation answered", asks)
	}

	for _, sent := range up.requests() {
		if sent == "" || strings.HasPrefix(sent, string(mcp.MethodInitialize)) {
			t.Errorf("the upstream was sent a handshake-era request (%q); want 2026-07-28 only", up.requests())
			break
		}
	}
}
