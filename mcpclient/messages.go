package mcpclient

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
)

// messageSink returns what a session of server does with each
// notification a gateway passes on (log messages, resource updates):
// hand it to Options.Notifications, or nothing.
func (c *Connector) messageSink(server string) func(string, mcp.NotificationParams) {
	if c.opts.Notifications == nil {
		return nil
	}
	return func(method string, p mcp.NotificationParams) {
		raw, err := json.Marshal(p)
		if err != nil {
			return
		}
		c.opts.Notifications(domain.ServerNotification{Server: server, Method: method, Params: raw})
	}
}

// SetLogLevel sends logging/setLevel, so the server sends log messages of
// level and above.
func (s *session) SetLogLevel(ctx context.Context, level string) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	ex := &exchange{}
	req := mcp.SetLevelRequest{}
	req.Params.Level = mcp.LoggingLevel(level)
	if err := s.client.SetLevel(withExchange(ctx, ex), req); err != nil {
		return s.requestError(ctx, ex, fmt.Errorf("logging/setLevel: %w", err))
	}
	s.forgetCallMeta() // on 2026-07-28 the level travels in each call's _meta
	return nil
}

var _ domain.LogLeveler = (*session)(nil)

// SubscribeResource sends resources/subscribe, or on 2026-07-28 reopens
// the listen stream with the resource added.
func (s *session) SubscribeResource(ctx context.Context, uri string) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	ex := &exchange{}
	req := mcp.SubscribeRequest{}
	req.Params.URI = uri
	if err := s.client.Subscribe(withExchange(ctx, ex), req); err != nil {
		return s.requestError(ctx, ex, fmt.Errorf("resources/subscribe: %w", err))
	}
	if mcp.IsModernProtocol(s.version) {
		// mcp-go only noted the URI: the listen stream carries it.
		s.relistenNow()
	}
	return nil
}

// UnsubscribeResource sends resources/unsubscribe, or on 2026-07-28
// reopens the listen stream without the resource.
func (s *session) UnsubscribeResource(ctx context.Context, uri string) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	ex := &exchange{}
	req := mcp.UnsubscribeRequest{}
	req.Params.URI = uri
	if err := s.client.Unsubscribe(withExchange(ctx, ex), req); err != nil {
		return s.requestError(ctx, ex, fmt.Errorf("resources/unsubscribe: %w", err))
	}
	if mcp.IsModernProtocol(s.version) {
		s.relistenNow()
	}
	return nil
}

var _ domain.ResourceSubscriber = (*session)(nil)
