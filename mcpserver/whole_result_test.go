package mcpserver_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
)

// A result larger than the card keeps reaches the AI client whole, in both
// eras, as it would calling the server directly; the card keeps its cut
// copy.
func TestResultOverTheStoreCapReachesTheClientWhole(t *testing.T) {
	f := newFixtureWith(t, func(o *domain.InvocationsOptions) { o.MaxResultBytes = 2048 })
	big := strings.Repeat("0123456789", 1000)
	sess := f.connect(t, "big", echoCaps("big"))
	sess.OnCall(func(context.Context, string, json.RawMessage, func(domain.Progress)) (json.RawMessage, error) {
		b, _ := json.Marshal(big)
		return json.RawMessage(`{"content":[{"type":"text","text":` + string(b) + `}]}`), nil
	})
	for _, legacy := range []bool{true, false} {
		c := f.dial(t, "/mcp", legacy)
		text, isErr := callText(t, c, "big__echo", map[string]any{"message": "m"})
		if isErr || text != big {
			t.Errorf("legacy=%v: client got %d bytes (error %v: %.200s); want the server's %d", legacy, len(text), isErr, text, len(big))
		}
	}
	invs, err := f.inv.List(t.Context(), scope, domain.InvocationFilter{})
	if err != nil || len(invs) != 2 {
		t.Fatalf("invocations %d, %v", len(invs), err)
	}
	for _, inv := range invs {
		if !inv.Truncated || len(inv.Result) > 2048 {
			t.Errorf("card result %d bytes, truncated %v; want the cut copy", len(inv.Result), inv.Truncated)
		}
	}
}
