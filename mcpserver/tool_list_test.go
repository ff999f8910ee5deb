package mcpserver_test

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/mcpserver"
)

// listCaps lists tools carrying what an encoding could get wrong: _meta
// with a number a float would round, icons, characters JSON escapes for
// HTML, non-ASCII text, an output schema, a task-only tool, a tool listed
// without Raw, and one mcp-go refuses (left out).
func listCaps(server string) domain.Capabilities {
	caps := echoCaps(server)
	caps.Tools = append(caps.Tools,
		domain.Tool{Name: "rich", Raw: []byte(`{"name":"rich","title":"Rich <b>&amp;</b> tool","description":"Café ✓ \u2028 \"quoted\"","inputSchema":{"type":"object","properties":{"q":{"type":"string","default":"<x>"}},"required":["q"]},"outputSchema":{"type":"object","properties":{"n":{"type":"number"}}},"annotations":{"title":"R","readOnlyHint":true,"openWorldHint":false},"icons":[{"src":"https://example.com/i.png","mimeType":"image/png","sizes":["48x48"]}],"_meta":{"big":12345678901234567890,"nested":{"a":[1,2]}},"x-unknown":true}`)},
		domain.Tool{Name: "tasky", TaskSupport: domain.TaskSupportRequired, Raw: []byte(`{"name":"tasky","inputSchema":{"type":"object"},"execution":{"taskSupport":"required"}}`)},
		domain.Tool{Name: "bare", Title: "Bare", Description: "listed without Raw", InputSchema: []byte(`{"type":"object","properties":{"n":{"type":"integer"}}}`)},
		domain.Tool{Name: "bad-header", Raw: []byte(`{"name":"bad-header","inputSchema":{"type":"object","properties":{"o":{"type":"object","x-mcp-header":"X"}}}}`)},
	)
	return caps
}

// listRecorder passes every tools/list on to the gateway and also to the
// same endpoint served by mcp-go alone, and keeps both results exactly as
// sent, from a JSON body or an SSE event.
type listRecorder struct {
	gateway *mcpserver.Gateway
	mu      sync.Mutex
	pairs   [][2]json.RawMessage // the gateway's result, mcp-go's alone
}

func (l *listRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		var err error
		if body, err = io.ReadAll(req.Body); err != nil {
			return nil, err
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
	}
	res, err := http.DefaultTransport.RoundTrip(req)
	if err != nil || !bytes.Contains(body, []byte(`"method":"tools/list"`)) {
		return res, err
	}
	data, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		return nil, err
	}
	res.Body = io.NopCloser(bytes.NewReader(data))
	alone := httptest.NewRecorder()
	again := httptest.NewRequestWithContext(req.Context(), http.MethodPost, req.URL.Path, bytes.NewReader(body))
	again.Header = req.Header.Clone()
	mcpserver.EncodingHandler(l.gateway, req.URL.Path).ServeHTTP(alone, again)
	l.mu.Lock()
	l.pairs = append(l.pairs, [2]json.RawMessage{resultOf(data, res.Header), resultOf(alone.Body.Bytes(), alone.Header())})
	l.mu.Unlock()
	return res, nil
}

// resultOf is the result of the JSON-RPC answer in data, a JSON body or
// an SSE stream.
func resultOf(data []byte, h http.Header) json.RawMessage {
	if strings.HasPrefix(h.Get("Content-Type"), "text/event-stream") {
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			if line, ok := bytes.CutPrefix(sc.Bytes(), []byte("data: ")); ok && bytes.Contains(line, []byte(`"result"`)) {
				data = append([]byte(nil), line...)
			}
		}
	}
	var top struct {
		Result json.RawMessage `json:"result"`
	}
	if json.Unmarshal(data, &top) != nil {
		return nil
	}
	return top.Result
}

func (l *listRecorder) take() [][2]json.RawMessage {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.pairs
	l.pairs = nil
	return out
}

// sameListing reports how a tools/list result answered from the cache
// differs from the one mcp-go writes by encoding the tools itself: the
// envelope must be byte for byte mcp-go's, and each tool must carry every
// field mcp-go writes (bar the empty annotations it invents for a server
// that sent none), plus what mcp-go drops (fields it does not model); no
// tool is listed with execution. "" when it is as it should be.
func sameListing(gateway, alone json.RawMessage) string {
	var g, a map[string]json.RawMessage
	if json.Unmarshal(gateway, &g) != nil || json.Unmarshal(alone, &a) != nil {
		return "not JSON objects"
	}
	var gt, at []map[string]json.RawMessage
	if json.Unmarshal(g["tools"], &gt) != nil || json.Unmarshal(a["tools"], &at) != nil || len(gt) != len(at) {
		return "different tool arrays"
	}
	delete(g, "tools")
	delete(a, "tools")
	ge, _ := json.Marshal(g)
	ae, _ := json.Marshal(a)
	if !bytes.Equal(ge, ae) {
		return fmt.Sprintf("envelope %s, mcp-go's %s", ge, ae)
	}
	for i := range gt {
		if _, ok := gt[i]["execution"]; ok {
			return fmt.Sprintf("tool %s listed with execution", gt[i]["name"])
		}
		for k, v := range at[i] {
			if k == "annotations" && string(v) == "{}" {
				continue
			}
			if !bytes.Equal(gt[i][k], v) {
				return fmt.Sprintf("tool %d field %s: %s, mcp-go writes %s", i, k, gt[i][k], v)
			}
		}
	}
	return ""
}

// TestCachedToolListsAreWhatMCPGoWrites: a tools/list answered from the
// tools' cached encoding has mcp-go's envelope and every tool as its
// server listed it (see sameListing), in both eras, on /mcp and
// /mcp/{server}, for a whole list and for one that starts at a cursor.
func TestCachedToolListsAreWhatMCPGoWrites(t *testing.T) {
	f := newFixture(t)
	f.connect(t, "alpha", listCaps("alpha"))
	f.connect(t, "beta", listCaps("beta"))
	hc := &http.Client{Transport: &listRecorder{gateway: f.gateway}}
	rec := hc.Transport.(*listRecorder)
	for _, era := range []struct {
		name   string
		legacy bool
	}{{"legacy", true}, {"2026-07-28", false}} {
		for _, path := range []string{"/mcp", "/mcp/alpha"} {
			t.Run(era.name+path, func(t *testing.T) {
				c := f.dial(t, path, era.legacy, transport.WithHTTPBasicClient(hc))
				before := mcpserver.ToolListsFromCache(f.gateway)
				all, err := c.ListTools(t.Context(), mcp.ListToolsRequest{})
				if err != nil {
					t.Fatal(err)
				}
				if len(all.Tools) < 3 {
					t.Fatalf("listed %d tools, want several", len(all.Tools))
				}
				page := mcp.ListToolsRequest{}
				page.Params.Cursor = mcp.Cursor(base64.StdEncoding.EncodeToString([]byte(all.Tools[1].Name)))
				rest, err := c.ListTools(t.Context(), page)
				if err != nil {
					t.Fatal(err)
				}
				if len(rest.Tools) != len(all.Tools)-2 {
					t.Fatalf("after a cursor: listed %d tools, want %d", len(rest.Tools), len(all.Tools)-2)
				}
				if got := mcpserver.ToolListsFromCache(f.gateway) - before; got != 2 {
					t.Fatalf("%d of 2 lists came from the cache", got)
				}
				pairs := rec.take()
				if len(pairs) != 2 {
					t.Fatalf("recorded %d answers, want 2", len(pairs))
				}
				for i, p := range pairs {
					if why := sameListing(p[0], p[1]); p[0] == nil || why != "" {
						t.Errorf("answer %d from the gateway: %s\n%s\nmcp-go's alone:\n%s", i, why, p[0], p[1])
					}
				}
				if bytes.Contains(pairs[0][0], []byte("bad-header")) || !bytes.Contains(pairs[0][0], []byte(`"big":12345678901234567890`)) ||
					!bytes.Contains(pairs[0][0], []byte(`"x-unknown":true`)) {
					t.Errorf("whole list: got %s, want the rich tool's _meta and x-unknown, and no bad-header", pairs[0][0])
				}
				if !era.legacy && !bytes.Contains(pairs[0][0], []byte(`"resultType":"complete"`)) {
					t.Errorf("2026-07-28 list: got %s, want resultType", pairs[0][0])
				}
			})
		}
	}

	// A server leaving changes the cached list with mcp-go's.
	c := f.dial(t, "/mcp", true, transport.WithHTTPBasicClient(hc))
	if _, err := f.fleet.Disable(t.Context(), "beta"); err != nil {
		t.Fatal(err)
	}
	f.gateway.Refresh()
	before := mcpserver.ToolListsFromCache(f.gateway)
	if _, err := c.ListTools(t.Context(), mcp.ListToolsRequest{}); err != nil {
		t.Fatal(err)
	}
	pairs := rec.take()
	if len(pairs) != 1 || mcpserver.ToolListsFromCache(f.gateway)-before != 1 {
		t.Fatalf("after beta left: recorded %d answers, want 1 from the cache", len(pairs))
	}
	if got := pairs[0][0]; sameListing(got, pairs[0][1]) != "" || bytes.Contains(got, []byte("beta__")) || !bytes.Contains(got, []byte("alpha__rich")) {
		t.Errorf("after beta left: got %s, want alpha's tools only, as mcp-go writes them (%s)", got, pairs[0][1])
	}
}
