package domaintest

import (
	"context"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// Connector is a fake domain.Connector: every Connect waits until the test
// takes the Attempt and decides its outcome.
type Connector struct {
	attempts chan *Attempt
}

var _ domain.Connector = (*Connector)(nil)

// NewConnector returns a connector with no attempt in flight.
func NewConnector() *Connector { return &Connector{attempts: make(chan *Attempt)} }

// Attempt is one call of Connect.
type Attempt struct {
	Config domain.ServerConfig
	Stderr io.Writer
	// Ctx is the context Connect was given; context.Cause tells why the
	// supervisor ended it.
	Ctx   context.Context
	reply chan attemptReply
	held  atomic.Bool
}

// Hold makes the attempt outlive its context, as a real connector's does
// while it stops a process: once the supervisor gives up on it, Connect
// still waits for Succeed or Fail. Call it before the context ends.
func (a *Attempt) Hold() { a.held.Store(true) }

type attemptReply struct {
	s   *Session
	err error
}

// Succeed completes the handshake with s.
func (a *Attempt) Succeed(s *Session) { a.reply <- attemptReply{s: s} }

// Fail fails the handshake with err.
func (a *Attempt) Fail(err error) { a.reply <- attemptReply{err: err} }

func (c *Connector) Connect(ctx context.Context, cfg domain.ServerConfig, stderr io.Writer) (domain.Session, error) {
	a := &Attempt{Config: cfg, Stderr: stderr, Ctx: ctx, reply: make(chan attemptReply, 1)}
	select {
	case c.attempts <- a:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	select {
	case r := <-a.reply:
		return r.result()
	case <-ctx.Done():
		if a.held.Load() {
			return (<-a.reply).result()
		}
		return nil, ctx.Err()
	}
}

// Next waits for the supervisor's next Connect.
func (c *Connector) Next(t TB) *Attempt {
	t.Helper()
	select {
	case a := <-c.attempts:
		return a
	case <-time.After(10 * time.Second):
		t.Fatalf("no connection attempt was made")
		return nil
	}
}

// Session is a fake domain.Session whose lists, probes, notifications and
// loss the test controls.
type Session struct {
	Version string

	mu       sync.Mutex // guards caps, listErr, err and closed
	caps     domain.Capabilities
	listErr  error
	err      error
	closed   bool
	done     chan struct{}
	changes  chan domain.ListKind
	probes   chan error
	probeIn  chan struct{}
	closedCh chan struct{}
	calls    calls
	prompts  prompts
}

var _ domain.Session = (*Session)(nil)

// NewSession returns a live session listing caps.
func NewSession(caps domain.Capabilities) *Session {
	return &Session{
		Version:  "2025-11-25",
		caps:     caps,
		done:     make(chan struct{}),
		changes:  make(chan domain.ListKind, 16),
		probes:   make(chan error),
		probeIn:  make(chan struct{}, 16),
		closedCh: make(chan struct{}),
	}
}

func (s *Session) ProtocolVersion() string { return s.Version }

// Probe waits for the test to answer through AnswerProbe.
func (s *Session) Probe(ctx context.Context) error {
	s.probeIn <- struct{}{}
	select {
	case err := <-s.probes:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// AnswerProbe waits for a probe and answers it with err.
func (s *Session) AnswerProbe(t TB, err error) {
	t.Helper()
	select {
	case <-s.probeIn:
	case <-time.After(10 * time.Second):
		t.Fatalf("no probe was sent")
	}
	s.probes <- err
}

func (s *Session) List(ctx context.Context, kind domain.ListKind) (domain.Capabilities, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.listErr != nil {
		return domain.Capabilities{}, s.listErr
	}
	return s.caps, nil
}

// FailLists makes every list from now on fail with err; nil lists again.
func (s *Session) FailLists(err error) {
	s.mu.Lock()
	s.listErr = err
	s.mu.Unlock()
}

// SetCaps changes what the session lists from now on.
func (s *Session) SetCaps(c domain.Capabilities) {
	s.mu.Lock()
	s.caps = c
	s.mu.Unlock()
}

// Announce sends a list_changed notification.
func (s *Session) Announce(k domain.ListKind) { s.changes <- k }

func (s *Session) Changes() <-chan domain.ListKind { return s.changes }
func (s *Session) Done() <-chan struct{}           { return s.done }

func (s *Session) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Lose ends the connection as if the server went away with err.
func (s *Session) Lose(err error) {
	s.mu.Lock()
	s.err = err
	s.mu.Unlock()
	close(s.done)
}

func (s *Session) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed {
		s.closed = true
		close(s.closedCh)
	}
	return nil
}

// WaitClosed fails the test unless Close is called.
func (s *Session) WaitClosed(t TB) {
	t.Helper()
	select {
	case <-s.closedCh:
	case <-time.After(10 * time.Second):
		t.Fatalf("session was not closed")
	}
}

// AutoConnector connects every attempt at once with a fresh session
// listing Caps, counting attempts: for benchmarks and tests that need many
// connected servers without scripting each handshake.
type AutoConnector struct {
	Caps     domain.Capabilities
	mu       sync.Mutex // guards attempts
	attempts map[string]int
}

var _ domain.Connector = (*AutoConnector)(nil)

func (c *AutoConnector) Connect(ctx context.Context, cfg domain.ServerConfig, stderr io.Writer) (domain.Session, error) {
	c.mu.Lock()
	if c.attempts == nil {
		c.attempts = map[string]int{}
	}
	c.attempts[cfg.Name]++
	c.mu.Unlock()
	return NewSession(c.Caps), nil
}

// Attempts returns how many times each server was connected.
func (c *AutoConnector) Attempts() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[string]int, len(c.attempts))
	for k, v := range c.attempts {
		out[k] = v
	}
	return out
}

func (r attemptReply) result() (domain.Session, error) {
	if r.err != nil {
		return nil, r.err
	}
	return r.s, nil
}
