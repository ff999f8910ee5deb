package mcpserver

import (
	"context"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// firstConnectWait bounds how long a call to a name no server lists yet
// waits for servers that are still making their first connection: right
// after Switchboard starts (a stdio bridge may have just started it), a
// client's first call would otherwise find no tools at all.
const firstConnectWait = 2 * time.Minute

// changed returns a channel closed at the next change of the endpoint's
// lists.
func (ep *endpoint) changed() <-chan struct{} {
	ep.mu.Lock()
	defer ep.mu.Unlock()
	if ep.next == nil {
		ep.next = make(chan struct{})
	}
	return ep.next
}

// announce wakes every call waiting for the lists to change; the caller
// holds ep.mu.
func (ep *endpoint) announce() {
	if ep.next != nil {
		close(ep.next)
		ep.next = nil
	}
}

// firstConnecting reports whether a server this endpoint serves is still
// making its first connection: connecting, never connected, neither
// disabled nor blocked.
func (ep *endpoint) firstConnecting() bool {
	for _, st := range ep.g.opts.Fleet.Hub().List() {
		if ep.server != "" && st.ServerName != ep.server {
			continue
		}
		if st.State == domain.StateConnecting && st.ConnectedAt.IsZero() && st.BlockedReason == domain.BlockedNone {
			return true
		}
	}
	return false
}

// awaitListed waits until known says the catalogue lists what a request
// names, while servers are still making their first connection; it gives
// up when none is, when firstConnectWait passes or when ctx ends, and
// leaves the request to fail as it would have.
func (ep *endpoint) awaitListed(ctx context.Context, known func(*domain.Catalogue) bool) {
	if known(ep.cat.Load()) || !ep.firstConnecting() {
		return
	}
	ep.waiting.Add(1)
	defer ep.waiting.Add(-1)
	limit := ep.g.opts.Clock.NewTimer(firstConnectWait)
	defer limit.Stop()
	// Every refresh wakes the wait, lists changed or not: the gateway
	// refreshes on every status change, so a first connection that fails
	// is seen too.
	for {
		changed := ep.changed()
		if known(ep.cat.Load()) || !ep.firstConnecting() {
			return
		}
		select {
		case <-changed:
		case <-limit.C():
			return
		case <-ctx.Done():
			return
		}
	}
}
