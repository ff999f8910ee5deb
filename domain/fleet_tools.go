package domain

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// ErrNotConnected is returned for a call to a server with no live session.
var ErrNotConnected = fmt.Errorf("server is not connected")

var _ ToolCaller = (*Fleet)(nil)

// CallTool sends tools/call through the server's supervised connection.
// It fails with ErrNotConnected rather than waiting for a reconnect, so a
// card says at once why nothing happened.
func (f *Fleet) CallTool(ctx context.Context, server, tool string, args json.RawMessage, progress func(Progress)) (json.RawMessage, error) {
	sess, err := f.liveSession(server)
	if err != nil {
		return nil, err
	}
	res, err := sess.CallTool(ctx, tool, args, progress)
	if err != nil {
		return nil, fmt.Errorf("call %s on %s: %w", tool, server, err)
	}
	return res, nil
}

// ReadResource sends resources/read through the server's connection.
func (f *Fleet) ReadResource(ctx context.Context, server, uri string) (json.RawMessage, error) {
	sess, err := f.liveSession(server)
	if err != nil {
		return nil, err
	}
	res, err := sess.ReadResource(ctx, uri)
	if err != nil {
		return nil, fmt.Errorf("read %s on %s: %w", uri, server, err)
	}
	return res, nil
}

// CallTimeout is the server's per-call deadline (callTimeoutSeconds).
func (f *Fleet) CallTimeout(server string) (time.Duration, error) {
	s, err := f.get(server)
	if err != nil {
		return 0, err
	}
	return s.config().callTimeout(), nil
}

func (f *Fleet) liveSession(server string) (Session, error) {
	s, err := f.get(server)
	if err != nil {
		return nil, err
	}
	sess := s.liveSession()
	if sess == nil {
		return nil, fmt.Errorf("server %q: %w", server, ErrNotConnected)
	}
	return sess, nil
}

var _ Catalog = (*Fleet)(nil)

// Redactor returns the redactor of one server's configured secrets.
func (f *Fleet) Redactor(server string) (Redactor, error) {
	s, err := f.get(server)
	if err != nil {
		return Redactor{}, err
	}
	return s.config().Redactor(), nil
}
