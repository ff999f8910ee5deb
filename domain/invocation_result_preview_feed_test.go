package domain_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
)

// A finished call reaches open pages with only what its card shows of a
// large result, while the call itself, the store and a gateway caller keep
// the whole: pages that want more read it from the store.
func TestFeedCarriesAPreviewOfALargeResult(t *testing.T) {
	ir := newInvRig(t, nil)
	big := strings.Repeat("y", 3<<20)
	ir.sess.OnCall(func(context.Context, string, json.RawMessage, func(domain.Progress)) (json.RawMessage, error) {
		return json.RawMessage(`{"content":[{"type":"text","text":"` + big + `"}]}`), nil
	})
	sub := ir.svc.Feed().Subscribe(ir.scope)
	defer sub.Close()
	inv, whole, err := ir.svc.CallWhole(context.Background(), domain.CallRequest{Scope: ir.scope, Server: "srv", Tool: "slow"})
	if err != nil {
		t.Fatal(err)
	}
	if inv.ResultPreviewed || !strings.Contains(string(inv.Result), big) || !strings.Contains(string(whole), big) {
		t.Errorf("the caller's result: %d bytes (whole %d), previewed %v; want the whole, not a preview",
			len(inv.Result), len(whole), inv.ResultPreviewed)
	}
	var final domain.Invocation
	for _, c := range sub.Drain() {
		if c.Status.Final() {
			final = c
		}
	}
	if !final.ResultPreviewed || len(final.Result) > domain.PreviewBytes || final.ResultSize != inv.ResultSize {
		t.Errorf("the feed's final state: %d bytes of result, previewed %v, size %d; want a preview of at most %d, size %d",
			len(final.Result), final.ResultPreviewed, final.ResultSize, domain.PreviewBytes, inv.ResultSize)
	}
	stored, err := ir.svc.Get(context.Background(), ir.scope, inv.ID)
	if err != nil {
		t.Fatal(err)
	}
	if stored.ResultPreviewed || !strings.Contains(string(stored.Result), big) || stored.Version != final.Version {
		t.Errorf("the stored call: %d bytes, previewed %v, version %d; want the whole at the feed's version %d",
			len(stored.Result), stored.ResultPreviewed, stored.Version, final.Version)
	}
}
