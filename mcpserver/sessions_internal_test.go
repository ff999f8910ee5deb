package mcpserver

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-mcp/switchboard/domain/domaintest"
)

func TestRecentIdentitiesAreBounded(t *testing.T) {
	clock := domaintest.NewClock(time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC))
	r := newClientRegistry(clock)
	g := &Gateway{}
	see := func(name string) {
		ctx := server.WithRequestProtocolInfo(context.Background(), &server.RequestProtocolInfo{
			Modern: true, ClientInfo: &mcp.Implementation{Name: name, Version: "1"}})
		r.seen(ctx, g, "/mcp", false)
	}
	for i := range MaxRecentIdentities + 50 {
		see(fmt.Sprintf("client-%03d", i))
		clock.Advance(time.Second)
	}
	got := r.list()
	if len(got) != MaxRecentIdentities {
		t.Fatalf("got %d identities, want at most %d", len(got), MaxRecentIdentities)
	}
	if newest, oldest := got[0].Client.Name, got[len(got)-1].Client.Name; newest != "client-249" || oldest != "client-050" {
		t.Errorf("got newest %s, oldest %s; want client-249 and client-050 (the least recently seen dropped)", newest, oldest)
	}
	clock.Advance(IdentityRetention)
	if got := r.list(); len(got) != 0 {
		t.Errorf("after %s: got %d identities, want none", IdentityRetention, len(got))
	}
	see("again")
	if got := r.list(); len(got) != 1 || len(r.identities) != 1 {
		t.Errorf("a new identity after expiry: got %d listed, %d kept; want 1 and 1", len(got), len(r.identities))
	}
}
