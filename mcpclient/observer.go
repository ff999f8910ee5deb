package mcpclient

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/client/transport"

	"github.com/switchboard-mcp/switchboard/domain"
)

// exchange records the HTTP status behind one MCP request. mcp-go turns most
// statuses into strings or into ErrLegacySSEServer (any 4xx on initialize),
// so the categorizer needs to see them first-hand.
type exchange struct {
	mu          sync.Mutex // guards the fields below
	status      int        // the last HTTP status of 400 or more
	sessionGone bool       // a request carrying a session ID was refused as unknown
	tooLarge    error      // a response or event passed Options.MaxMessageBytes
	// challenge is the WWW-Authenticate of the last 401 or 403, and signIn
	// whether the server's credentials come from Options.Auth, which can
	// sign in again (rather than from headers in the settings).
	challenge authChallenge
	signIn    bool
}

// overflowed records that a response read for this request passed the
// limit; mcp-go's error may not say so (a cut-off event stream becomes
// "unexpected nil response").
func (e *exchange) overflowed(err error) {
	if e == nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.tooLarge = err
}

// explain adds the recorded overflow to err unless err already carries it.
func (e *exchange) explain(err error) error {
	if e == nil || errors.Is(err, ErrMessageTooLarge) {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.tooLarge == nil {
		return err
	}
	return fmt.Errorf("%w: %w", err, e.tooLarge)
}

func (e *exchange) record(status int, sessionGone bool) {
	if e == nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.status = status
	e.sessionGone = e.sessionGone || sessionGone
}

// refused records the challenge of a 401 or 403 and whether a sign-in can
// answer it.
func (e *exchange) refused(ch authChallenge, signIn bool) {
	if e == nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.challenge, e.signIn = ch, signIn
}

// needsMoreAccess returns the scopes a 403 insufficient_scope asked for,
// when the request was refused so and a sign-in with more access can help.
func (e *exchange) needsMoreAccess() (*domain.NeedsMoreAccessError, bool) {
	if e == nil {
		return nil, false
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.status != http.StatusForbidden || !e.signIn || !e.challenge.insufficientScope {
		return nil, false
	}
	return &domain.NeedsMoreAccessError{Scopes: e.challenge.scopes}, true
}

// category returns what the recorded status says about a failed request,
// or "" when it says nothing beyond the error itself.
func (e *exchange) category(handshake bool) domain.ErrorCategory {
	if e == nil {
		return ""
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	switch {
	case e.status == http.StatusUnauthorized && e.signIn,
		e.status == http.StatusForbidden && e.signIn && e.challenge.insufficientScope:
		// A person can fix it by signing in (with more access).
		return domain.CategorySignIn
	case e.status == http.StatusUnauthorized || e.status == http.StatusForbidden:
		return domain.CategoryAuth
	case e.sessionGone:
		return domain.CategorySession
	case handshake && (e.status == http.StatusNotFound || e.status == http.StatusMethodNotAllowed):
		// The endpoint is wrong, or it serves only the legacy SSE transport.
		return domain.CategoryConfig
	}
	return ""
}

type exchangeKey struct{}

// withExchange makes the observer record the statuses of every HTTP request
// mcp-go sends on ctx into e.
func withExchange(ctx context.Context, e *exchange) context.Context {
	return context.WithValue(ctx, exchangeKey{}, e)
}

func exchangeFrom(ctx context.Context) *exchange {
	e, _ := ctx.Value(exchangeKey{}).(*exchange)
	return e
}

// observer wraps the HTTP transport under mcp-go to see what mcp-go hides:
// status codes, and failures of its background GET stream, which mcp-go
// retries forever without telling anyone. It reports a lost connection
// through lost and the first answer to the GET stream through streamSettled.
// It also reads every response body under maxMessage.
type observer struct {
	base       http.RoundTripper
	lost       func(*domain.ConnError)
	maxMessage int64
	// tap, when set, sees every message of every event stream (see
	// sentParams).
	tap func([]byte)
	// signIn says requests go through Options.Auth: a 401 asks a person
	// to sign in rather than being a permanent auth error.
	signIn        bool
	settledOnce   sync.Once
	streamSettled chan struct{} // closed once the GET stream was answered or failed
}

func newObserver(base http.RoundTripper, lost func(*domain.ConnError), maxMessage int64) *observer {
	return &observer{base: base, lost: lost, maxMessage: maxMessage, streamSettled: make(chan struct{})}
}

func (o *observer) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := o.base.RoundTrip(req)
	listening := req.Method == http.MethodGet && strings.Contains(req.Header.Get("Accept"), "text/event-stream")
	if listening {
		defer o.settledOnce.Do(func() { close(o.streamSettled) })
	}
	if err == nil {
		o.limitBody(req, resp, listening)
	}
	if err != nil {
		// A request its caller gave up on, or one that was merely slow,
		// says nothing about the connection: Probe judges slowness.
		if req.Context().Err() == nil && !isTimeout(err) {
			o.lost(connError(fmt.Errorf("%s %s: %w", req.Method, req.URL.Redacted(), err)))
		}
		return nil, err
	}
	if resp.StatusCode < http.StatusBadRequest {
		return resp, nil
	}
	gone := false
	if req.Method != http.MethodDelete && req.Header.Get(transport.HeaderKeySessionID) != "" {
		switch resp.StatusCode {
		case http.StatusNotFound:
			gone = true
		case http.StatusBadRequest:
			gone = peekMentionsSession(resp)
		}
	}
	ex := exchangeFrom(req.Context())
	ex.record(resp.StatusCode, gone)
	if resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden {
		ex.refused(parseAuthChallenge(resp.Header), o.signIn)
	}
	if listening && resp.StatusCode == http.StatusUnauthorized {
		// mcp-go would ask again every second forever; the session ends
		// here and waits for a sign-in (or reports the refusal).
		cat := domain.CategoryAuth
		if o.signIn {
			cat = domain.CategorySignIn
		}
		o.lost(&domain.ConnError{Category: cat, Err: errors.New("the server refused the event stream: HTTP 401 Unauthorized")})
	}
	if gone {
		o.lost(&domain.ConnError{Category: domain.CategorySession,
			Err: fmt.Errorf("server no longer knows the session (HTTP %d)", resp.StatusCode)})
	}
	return resp, nil
}

// peekMentionsSession reads the start of an error body, puts it back, and
// reports whether it complains about the session.
func peekMentionsSession(resp *http.Response) bool {
	head, err := io.ReadAll(io.LimitReader(resp.Body, 4096))
	resp.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(head), resp.Body), resp.Body}
	if err != nil && !errors.Is(err, io.EOF) {
		return false
	}
	return mentionsLostSession(string(head))
}
