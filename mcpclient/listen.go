package mcpclient

import (
	"context"
	"errors"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
)

// Bounds on reopening a 2026-07-28 subscriptions/listen stream that ended
// while the session lasts: the wait starts at listenRetryMin and doubles up
// to listenRetryMax, and starts over once a stream stayed open for
// listenStable.
const (
	listenRetryMin = 250 * time.Millisecond
	listenRetryMax = 30 * time.Second
	listenStable   = time.Minute
)

// listen opens the 2026-07-28 subscriptions/listen stream, which replaced
// unsolicited list_changed notifications, the GET stream and
// resources/subscribe, and reopens it whenever it ends while the session
// lasts: a dropped stream would otherwise leave the lists stale for good.
// mcp-go delivers what arrives on it to onNotification, as on the
// handshake era.
func (s *session) listen() {
	if s.listenFilter().IsEmpty() && !s.offersResourceUpdates() {
		return
	}
	ctx, cancel := context.WithCancel(s.ctx)
	done := make(chan struct{})
	s.stopListen = func() {
		cancel()
		<-done
	}
	go func() {
		defer close(done)
		s.keepListening(ctx)
	}()
}

// listenFilter is what the listen stream asks for: the changes of every
// list the server said it announces, and updates of the resources
// subscribed to (which mcp-go's Subscribe notes on a 2026-07-28
// connection).
func (s *session) listenFilter() mcp.SubscriptionFilter {
	f := mcp.SubscriptionFilter{
		ToolsListChanged:     s.caps.Tools != nil && s.caps.Tools.ListChanged,
		ResourcesListChanged: s.caps.Resources != nil && s.caps.Resources.ListChanged,
		PromptsListChanged:   s.caps.Prompts != nil && s.caps.Prompts.ListChanged,
	}
	if s.offersResourceUpdates() {
		f.ResourceSubscriptions = s.client.PendingSubscriptionFilter().ResourceSubscriptions
	}
	return f
}

// offersResourceUpdates reports whether the server declared resource
// subscriptions.
func (s *session) offersResourceUpdates() bool {
	return s.caps.Resources != nil && s.caps.Resources.Subscribe
}

// relistenNow makes the listen stream reopen at once with the current
// filter, after a resource was subscribed to or unsubscribed from.
func (s *session) relistenNow() {
	select {
	case s.relisten <- struct{}{}:
	default:
	}
	// The request in flight is ended here rather than by a goroutine per
	// stream waiting on relisten: keepListening finds the token and reopens.
	s.listenMu.Lock()
	end := s.listenEnd
	s.listenMu.Unlock()
	if end != nil {
		end()
	}
}

// keepListening holds the listen stream open until ctx ends or the session
// is lost. After a stream ends on its own every list it covers is
// announced as changed, since changes made while it was closed were never
// sent; one ended by relistenNow is reopened at once.
func (s *session) keepListening(ctx context.Context) {
	wait := listenRetryMin
	for {
		f := s.listenFilter()
		if f.IsEmpty() {
			// Nothing to hear until a resource is subscribed to.
			select {
			case <-s.relisten:
				continue
			case <-ctx.Done():
				return
			case <-s.done:
				return
			}
		}
		lctx, cancel := context.WithCancel(ctx)
		s.listenMu.Lock()
		s.listenEnd = cancel
		s.listenMu.Unlock()
		// relistenNow puts its token before it ends the request in flight:
		// one put before listenEnd was set asks for a newer filter than f.
		if s.takeRelisten() {
			cancel()
			continue
		}
		opened := time.Now()
		err := s.client.Listen(lctx, f)
		cancel()
		if s.takeRelisten() && ctx.Err() == nil {
			continue
		}
		if ctx.Err() != nil {
			return
		}
		if errors.Is(err, mcp.ErrMethodNotFound) {
			s.log.Debug("subscriptions/listen not offered", "error", err)
			return
		}
		s.log.Debug("subscriptions/listen ended; reopening", "error", err, "after", wait)
		if time.Since(opened) >= listenStable {
			wait = listenRetryMin
		}
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return
		case <-s.done:
			t.Stop()
			return
		}
		wait = min(2*wait, listenRetryMax)
		s.announce(f)
	}
}

// takeRelisten reports whether relistenNow asked for a reopen since the
// last call, and takes that request.
func (s *session) takeRelisten() bool {
	select {
	case <-s.relisten:
		return true
	default:
		return false
	}
}

// announce hands the consumer a change of every list f covers, dropping
// what does not fit, as onNotification does.
func (s *session) announce(f mcp.SubscriptionFilter) {
	var kinds []domain.ListKind
	if f.ToolsListChanged {
		kinds = append(kinds, domain.ListTools)
	}
	if f.ResourcesListChanged {
		kinds = append(kinds, domain.ListResources)
	}
	if f.PromptsListChanged {
		kinds = append(kinds, domain.ListPrompts)
	}
	for _, k := range kinds {
		s.lists.drop(k)
		select {
		case s.changes <- k:
		default:
		}
	}
}
