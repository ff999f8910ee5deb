package domain_test

import (
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
)

// A subscription to a hub that knows servers is ready at once with the
// full list, so a caller selecting on Ready heals a reconnect without
// waiting for the next change.
func TestSubscriptionReadyAtOnceWithFullList(t *testing.T) {
	h := domain.NewHub()
	h.Publish(domain.Status{ServerName: "x"})
	h.Publish(domain.Status{ServerName: "y"})
	sub := h.Subscribe()
	defer sub.Close()
	select {
	case <-sub.Ready():
	default:
		t.Fatal("Ready not signalled after Subscribe on a hub with servers")
	}
	if got := sub.Drain(); len(got) != 2 || got[0].ServerName != "x" || got[1].ServerName != "y" {
		t.Fatalf("Drain = %+v, want x then y", got)
	}
}

// An empty hub gives nothing to signal until a server is published; then
// Ready fires and Drain returns it, and a second Drain returns nothing.
func TestSubscriptionReadyOnPublish(t *testing.T) {
	h := domain.NewHub()
	sub := h.Subscribe()
	defer sub.Close()
	select {
	case <-sub.Ready():
		t.Fatal("Ready signalled on an empty hub")
	default:
	}
	want := h.Publish(domain.Status{ServerName: "a"})
	select {
	case <-sub.Ready():
	default:
		t.Fatal("Ready not signalled after Publish")
	}
	if got := sub.Drain(); len(got) != 1 || got[0].Version != want.Version {
		t.Fatalf("Drain = %+v, want the published snapshot v%d", got, want.Version)
	}
	if got := sub.Drain(); len(got) != 0 {
		t.Errorf("second Drain = %+v, want none", got)
	}
}
