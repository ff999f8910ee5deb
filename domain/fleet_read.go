package domain

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// PromptNotFoundError is a request for a prompt the connected server does
// not list. It names both, like ToolNotFoundError, and is
// ErrPromptNotFound (and so ErrNotFound) to errors.Is.
type PromptNotFoundError struct {
	Server string
	Prompt string
}

func (e *PromptNotFoundError) Error() string {
	return fmt.Sprintf("prompt %q not found on server %q", e.Prompt, e.Server)
}
func (e *PromptNotFoundError) Unwrap() error { return ErrPromptNotFound }

// ReadResource sends resources/read through the server's connection,
// refused like a tool call when the server is disabled or blocked and
// bounded by its call timeout.
func (f *Fleet) ReadResource(ctx context.Context, server, uri string) (json.RawMessage, error) {
	sess, cfg, err := f.requestSession(server)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, cfg.callTimeout())
	defer cancel()
	res, err := sess.ReadResource(ctx, uri)
	if err != nil {
		return nil, requestFailed(ctx, cfg, "read "+uri, err)
	}
	return res, nil
}

// GetPrompt sends prompts/get with the prompt's arguments through the
// server's connection. A prompt the connected server does not list is
// refused before the server is asked, as an unknown tool is.
func (f *Fleet) GetPrompt(ctx context.Context, server, prompt string, args map[string]string) (json.RawMessage, error) {
	sess, cfg, err := f.requestSession(server)
	if err != nil {
		return nil, err
	}
	if err := f.checkPrompt(server, prompt); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, cfg.callTimeout())
	defer cancel()
	res, err := sess.GetPrompt(ctx, prompt, args)
	if err != nil {
		return nil, requestFailed(ctx, cfg, "get prompt "+prompt, err)
	}
	return res, nil
}

// requestSession returns the live session of a server that takes
// requests, and its settings. A blocked or disabled server is refused
// with the same error a tool call gets; one that is only connecting or in
// error fails at once with ErrNotConnected rather than waiting.
func (f *Fleet) requestSession(server string) (Session, ServerConfig, error) {
	st, err := f.Status(server)
	if err != nil {
		return nil, ServerConfig{}, err
	}
	if err := refusal(st); err != nil {
		return nil, ServerConfig{}, err
	}
	s, err := f.get(server)
	if err != nil {
		return nil, ServerConfig{}, err
	}
	sess := s.liveSession()
	if sess == nil {
		return nil, ServerConfig{}, fmt.Errorf("server %q: %w", server, ErrNotConnected)
	}
	return sess, s.config(), nil
}

// checkPrompt fails with a *PromptNotFoundError unless the server lists
// prompt. It is called once the server is connected, when its prompt
// list is known.
func (f *Fleet) checkPrompt(server, prompt string) error {
	caps, err := f.Capabilities(server)
	if err != nil {
		return err
	}
	for _, p := range caps.Prompts {
		if p.Name == prompt {
			return nil
		}
	}
	return &PromptNotFoundError{Server: server, Prompt: prompt}
}

// requestFailed names the failed request and the server, and removes the
// server's secrets from what may be shown: a server's error message, or a
// crashed server's stderr, may repeat its own settings. A request that ran
// out of time says how long it waited; a *ServerError (the server answered
// with a JSON-RPC error; the session is fine) stays one, and a
// *ConnError becomes a *RequestError.
func requestFailed(ctx context.Context, cfg ServerConfig, op string, err error) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("%s on %s: %w within %s", op, cfg.Name, ErrNoAnswer, cfg.callTimeout().Round(time.Millisecond))
	}
	r := cfg.Redactor()
	var se *ServerError
	if errors.As(err, &se) {
		return fmt.Errorf("%s on %s: %w", op, cfg.Name, &ServerError{Code: se.Code, Message: r.Redact(se.Message)})
	}
	var ce *ConnError
	if errors.As(err, &ce) {
		return &RequestError{msg: r.Redact(fmt.Sprintf("%s on %s: %v", op, cfg.Name, err)), err: err}
	}
	// Anything else is unexplained, and its text is for the log only.
	return fmt.Errorf("%s on %s: %w", op, cfg.Name, err)
}

// RequestError is a read, prompt or completion that failed on the way to
// or from the server (the connection broke, the answer was too large)
// rather than by the server's refusal. Its text names the request and the
// server with the server's secrets removed, so it may be shown; the error
// it stands for stays reachable through errors.Is and As.
type RequestError struct {
	msg string
	err error
}

func (e *RequestError) Error() string { return e.msg }
func (e *RequestError) Unwrap() error { return e.err }
