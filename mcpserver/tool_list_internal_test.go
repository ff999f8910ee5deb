package mcpserver

import (
	"context"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-mcp/switchboard/domain"
)

func TestRefreshReusesUnchangedToolsAndRebuildsChangedOnes(t *testing.T) {
	r := newRig(t)
	caps := domain.Capabilities{Tools: []domain.Tool{
		{Name: "a", Raw: []byte(`{"name":"a","description":"first","inputSchema":{"type":"object"}}`)},
		{Name: "b", Description: "no raw listing"},
	}}
	s := r.connect(t, "alpha", caps)
	r.g.Refresh()
	r.l.take()
	before := r.g.agg.tools.Load()
	r.g.Refresh()
	after := r.g.agg.tools.Load()
	for i := range before.tools {
		if before.tools[i] != after.tools[i] {
			t.Errorf("unchanged tool %s was built again", before.tools[i].name)
		}
	}
	if got := r.l.take(); len(got) != 0 {
		t.Fatalf("nothing changed: got %v, want no notification", got)
	}

	// Only a's description changes: a is built again, b is kept.
	caps.Tools[0].Raw = []byte(`{"name":"a","description":"second","inputSchema":{"type":"object"}}`)
	s.SetCaps(caps)
	s.Announce(domain.ListTools)
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := r.fleet.Capabilities("alpha")
		if err == nil && len(c.Tools) == 2 && string(c.Tools[0].Raw) == string(caps.Tools[0].Raw) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("alpha never re-listed its tools")
		}
		time.Sleep(2 * time.Millisecond)
	}
	r.g.Refresh()
	if got := r.l.take(); len(got) != 1 || got[0] != "notifications/tools/list_changed" {
		t.Fatalf("a changed: got %v, want one tools/list_changed", got)
	}
	changed := r.g.agg.tools.Load()
	if changed.tools[0] == after.tools[0] || changed.tools[0].tool.Description != "second" {
		t.Errorf("changed tool a: got description %q, want it rebuilt as %q", changed.tools[0].tool.Description, "second")
	}
	if changed.tools[1] != after.tools[1] {
		t.Error("unchanged tool b was built again")
	}
}

// TestToolListWriterSplicesAnSSEEvent: the writer finds the placeholder
// in an answer sent as an SSE event as well as in a JSON body, and
// leaves other writes alone.
func TestToolListWriterSplicesAnSSEEvent(t *testing.T) {
	for _, frame := range []struct{ name, before, after string }{
		{"json", ``, "\n"},
		{"sse", "event: message\ndata: ", "\n\n"},
	} {
		t.Run(frame.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			slot := &toolListSlot{}
			array := [][]byte{[]byte(`[`), []byte(`{"name":"x"},{"name":"y"}]`)}
			slot.array.Store(&array)
			w := &toolListWriter{ResponseWriter: rec, slot: slot}
			note := frame.before + `{"jsonrpc":"2.0","method":"notifications/message","params":{}}` + frame.after
			answer := frame.before + `{"jsonrpc":"2.0","id":1,"result":{"tools":` + string(placeholderArray) + `}}` + frame.after
			for _, p := range []string{note, answer} {
				if n, err := w.Write([]byte(p)); err != nil || n != len(p) {
					t.Fatalf("write: got %d, %v; want %d, nil", n, err, len(p))
				}
			}
			want := note + frame.before + `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"x"},{"name":"y"}]}}` + frame.after
			if got := rec.Body.String(); got != want {
				t.Errorf("got %q, want %q", got, want)
			}
		})
	}
}

// TestWithoutSessionToolsOffersEverythingElse: the session a tools/list
// sees offers every exported method of mcp-go's own session but the
// session-tools pair, so nothing else mcp-go or a hook looks for on it is
// missing (a newer mcp-go that adds one fails here).
func TestWithoutSessionToolsOffersEverythingElse(t *testing.T) {
	var session server.ClientSession
	srv := server.NewStreamableHTTPServer(server.NewMCPServer("probe", "1", server.WithToolCapabilities(true)),
		server.WithHTTPContextFunc(func(ctx context.Context, _ *http.Request) context.Context {
			session = server.ClientSessionFromContext(ctx)
			return ctx
		}))
	req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	srv.ServeHTTP(httptest.NewRecorder(), req)
	if session == nil {
		t.Fatal("mcp-go gave the request no session")
	}
	methods := func(typ reflect.Type) []string {
		var out []string
		for m := range typ.Methods() {
			if m.Name != "GetSessionTools" && m.Name != "SetSessionTools" {
				out = append(out, m.Name)
			}
		}
		return out
	}
	if got, want := methods(reflect.TypeOf(withoutSessionTools{})), methods(reflect.TypeOf(session)); !slices.Equal(got, want) {
		t.Errorf("withoutSessionTools offers %v, want %v", got, want)
	}
	if _, ok := session.(listingSession); !ok {
		t.Errorf("mcp-go's session %T is not a listingSession", session)
	}
	if _, ok := any(withoutSessionTools{}).(server.SessionWithTools); ok {
		t.Error("withoutSessionTools offers session tools")
	}
}
