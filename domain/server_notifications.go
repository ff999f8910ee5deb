package domain

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
)

// Notification methods a ServerNotification carries.
const (
	NotifyMessage         = "notifications/message"           // a log line
	NotifyResourceUpdated = "notifications/resources/updated" // a subscribed resource changed
)

// ServerNotification is one notification a server sent that a gateway
// passes on to clients (NotifyMessage, NotifyResourceUpdated), kept as
// the server sent its params so it can be passed on intact.
type ServerNotification struct {
	Server string
	Method string
	Params json.RawMessage
}

// serverNotificationsBuffer is how many messages wait for one slow listener
// before more are dropped for it; log lines are not worth stalling a
// server's connection for.
const serverNotificationsBuffer = 256

// ServerNotifications fans the notifications of every server out to
// listeners.
// Publish never blocks: a listener that falls behind loses messages.
type ServerNotifications struct {
	mu   sync.Mutex // guards subs
	subs map[*ServerNotificationsSub]struct{}
}

// NewServerNotifications returns a feed with no listeners.
func NewServerNotifications() *ServerNotifications {
	return &ServerNotifications{subs: map[*ServerNotificationsSub]struct{}{}}
}

// Publish hands msg to every listener that has room for it.
func (m *ServerNotifications) Publish(msg ServerNotification) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for s := range m.subs {
		select {
		case s.ch <- msg:
		default:
		}
	}
}

// Subscribe starts a listener; Close ends it.
func (m *ServerNotifications) Subscribe() *ServerNotificationsSub {
	s := &ServerNotificationsSub{feed: m, ch: make(chan ServerNotification, serverNotificationsBuffer)}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.subs[s] = struct{}{}
	return s
}

// ServerNotificationsSub is one listener of a ServerNotifications feed.
type ServerNotificationsSub struct {
	feed *ServerNotifications
	ch   chan ServerNotification
}

// C delivers the messages.
func (s *ServerNotificationsSub) C() <-chan ServerNotification { return s.ch }

// Close stops delivery; C is never closed, so a reader selects on its own
// context as well.
func (s *ServerNotificationsSub) Close() {
	s.feed.mu.Lock()
	defer s.feed.mu.Unlock()
	delete(s.feed.subs, s)
}

// LogLeveler is a Session that can ask its server for a logging level
// (logging/setLevel). mcpclient's sessions are; fakes need not be.
type LogLeveler interface {
	SetLogLevel(ctx context.Context, level string) error
}

// SetLogLevel sends logging/setLevel to a connected server. A server
// whose session cannot set levels is left alone.
func (f *Fleet) SetLogLevel(ctx context.Context, server, level string) error {
	sess, cfg, err := f.requestSession(server)
	if err != nil {
		return err
	}
	ll, ok := sess.(LogLeveler)
	if !ok {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, cfg.callTimeout())
	defer cancel()
	if err := ll.SetLogLevel(ctx, level); err != nil {
		return requestFailed(ctx, cfg, "set log level "+level, err)
	}
	return nil
}

// ResourceSubscriber is a Session that can subscribe to a resource's
// updates (resources/subscribe, resources/unsubscribe).
type ResourceSubscriber interface {
	SubscribeResource(ctx context.Context, uri string) error
	UnsubscribeResource(ctx context.Context, uri string) error
}

// SubscribeResource sends resources/subscribe (or, when subscribe is
// false, resources/unsubscribe) to a connected server.
func (f *Fleet) SubscribeResource(ctx context.Context, server, uri string, subscribe bool) error {
	sess, cfg, err := f.requestSession(server)
	if err != nil {
		return err
	}
	rs, ok := sess.(ResourceSubscriber)
	if !ok {
		return fmt.Errorf("server %q: %w", server, ErrCannotSubscribe)
	}
	ctx, cancel := context.WithTimeout(ctx, cfg.callTimeout())
	defer cancel()
	op := "subscribe "
	if subscribe {
		err = rs.SubscribeResource(ctx, uri)
	} else {
		op = "unsubscribe "
		err = rs.UnsubscribeResource(ctx, uri)
	}
	if err != nil {
		return requestFailed(ctx, cfg, op+uri, err)
	}
	return nil
}
