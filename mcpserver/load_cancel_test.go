package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
)

// TestLoadCancellationsStayWithTheirCall: 32 clients hold a call each
// (every client's call has the same JSON-RPC id); half of each kind cancel —
// legacy clients with notifications/cancelled in their session, modern
// ones by dropping the request — while session-less cancellations of
// every id arrive from outside. Exactly the cancelled half ends cancelled;
// the rest get their own results when released.
func TestLoadCancellationsStayWithTheirCall(t *testing.T) {
	s := newStack(t)
	clients := dialLoadClients(t, s)
	bounded, cancel := context.WithTimeout(t.Context(), loadDeadline)
	defer cancel()
	type outcome struct {
		res *mcp.CallToolResult
		err error
	}
	results := make([]chan outcome, len(clients))
	cancels := make([]context.CancelFunc, len(clients))
	for i, lc := range clients {
		results[i] = make(chan outcome, 1)
		ctx, cancel := context.WithCancel(bounded)
		cancels[i] = cancel
		t.Cleanup(cancel)
		go func() {
			req := mcp.CallToolRequest{}
			req.Params.Name = lc.prefix + "load_block"
			req.Params.Arguments = map[string]any{"tag": blockTag(lc.id)}
			res, err := lc.c.CallTool(ctx, req)
			results[i] <- outcome{res, err}
		}()
	}
	eventually(t, func() bool { started, _ := s.blocker.counts(); return started == loadClients })

	// Cancellations that belong to no session must reach no call.
	for _, path := range []string{"/mcp", "/mcp/demo"} {
		for id := range 8 {
			postCancel(t, s.srv.URL+path, "", id)
		}
	}
	// Half the clients of each kind cancel their own call.
	for _, lc := range clients {
		if !cancelling(lc.id) {
			continue
		}
		if lc.legacy {
			for id := range 8 {
				postCancel(t, s.srv.URL+lc.path, lc.c.GetSessionId(), id)
			}
		} else {
			cancels[lc.id]()
		}
	}
	statusOf := func() map[string]domain.InvocationStatus {
		out := map[string]domain.InvocationStatus{}
		for _, inv := range allInvocations(t, s.inv) {
			var args struct{ Tag string }
			_ = json.Unmarshal(inv.Arguments, &args)
			out[args.Tag] = inv.Status
		}
		return out
	}
	eventually(t, func() bool {
		st := statusOf()
		for _, lc := range clients {
			if cancelling(lc.id) && st[blockTag(lc.id)] != domain.InvocationCancelled {
				return false
			}
		}
		return true
	})
	for tag, status := range statusOf() {
		var id int
		_, _ = fmt.Sscanf(tag, "block-%02d", &id)
		if !cancelling(id) && status.Final() {
			t.Errorf("call %s, never cancelled, ended %s while others cancelled theirs", tag, status)
		}
	}
	if _, cancelled := s.blocker.counts(); len(cancelled) > 0 {
		for tag := range cancelled {
			var id int
			_, _ = fmt.Sscanf(tag, "block-%02d", &id)
			if !cancelling(id) {
				t.Errorf("upstream saw call %s cancelled, which no one cancelled", tag)
			}
		}
	}

	s.blocker.releaseAll()
	for _, lc := range clients {
		if cancelling(lc.id) {
			// A cancelled call may or may not be answered; stop waiting.
			cancels[lc.id]()
			<-results[lc.id]
			continue
		}
		out := <-results[lc.id]
		if out.err != nil {
			t.Errorf("%s client %d (%s): %v", lc.era(), lc.id, lc.path, out.err)
			continue
		}
		if got := resultText(out.res); got != blockTag(lc.id) || out.res.IsError {
			t.Errorf("%s client %d (%s): got %q isError=%v, want its own %q", lc.era(), lc.id, lc.path, got, out.res.IsError, blockTag(lc.id))
		}
	}
	eventually(t, func() bool {
		st := statusOf()
		for _, lc := range clients {
			want := domain.InvocationSuccess
			if cancelling(lc.id) {
				want = domain.InvocationCancelled
			}
			if st[blockTag(lc.id)] != want {
				return false
			}
		}
		return true
	})
}

// cancelling says whether client id cancels its call: half of each
// endpoint-and-era combination does.
func cancelling(id int) bool { return (id/4)%2 == 1 }

func blockTag(id int) string { return fmt.Sprintf("block-%02d", id) }

// postCancel sends notifications/cancelled for request id, in session
// when one is given.
func postCancel(t *testing.T, url, session string, id int) {
	t.Helper()
	meta := ""
	if session == "" {
		// A well-formed 2026-07-28 notification, which mcp-go would act on.
		meta = `,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}`
	}
	body := fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":%d,"reason":"load test"%s}}`, id, meta)
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", legacyVersion)
	} else {
		req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", "notifications/cancelled")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusAccepted {
		t.Errorf("cancel of %d at %s (session %q): got %d, want 202", id, url, session, res.StatusCode)
	}
}
