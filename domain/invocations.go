package domain

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"
)

// DefaultMaxResultBytes caps what one result may take in the store.
const DefaultMaxResultBytes = 10 << 20

// Catalog reports what a server offers and its state; the Fleet
// implements it.
type Catalog interface {
	Status(server string) (Status, error)
	Capabilities(server string) (Capabilities, error)
	Redactor(server string) (Redactor, error)
}

// InvocationsOptions wires the invocation service.
type InvocationsOptions struct {
	Caller         ToolCaller
	Catalog        Catalog
	Store          InvocationStore
	Validator      SchemaValidator // nil skips argument validation
	Feed           *InvocationFeed
	Clock          Clock
	Log            *slog.Logger
	NewID          func() string
	MaxResultBytes int64
	// Policies decides, per tool, whether a call runs, waits for a
	// person's approval or is refused; nil allows every call.
	Policies *Policies
	// ApprovalTimeout is how long Call holds a client's call that awaits
	// approval before answering with *AwaitingApprovalError; 0 means
	// DefaultApprovalTimeout.
	ApprovalTimeout time.Duration
	// Grants keeps late approvals for the client's retry; nil keeps them
	// in memory, lost when the process ends.
	Grants GrantStore
	// Elicitations puts a server's questions to a person on the call's
	// card when the caller cannot answer them; nil asks nobody.
	Elicitations *Elicitations
}

// Invocations runs tools/call on a person's behalf and keeps every call
// visible: each one is stored and published as pending, running and then
// success, error or cancelled.
type Invocations struct {
	opts InvocationsOptions

	mu      sync.Mutex // guards running
	running map[string]*call
	stepUps stepUps
}

// NewInvocations returns the service.
func NewInvocations(opts InvocationsOptions) *Invocations {
	if opts.Clock == nil {
		opts.Clock = SystemClock{}
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if opts.NewID == nil {
		opts.NewID = randomID
	}
	if opts.MaxResultBytes <= 0 {
		opts.MaxResultBytes = DefaultMaxResultBytes
	}
	if opts.Feed == nil {
		opts.Feed = NewInvocationFeed()
	}
	if opts.ApprovalTimeout <= 0 {
		opts.ApprovalTimeout = DefaultApprovalTimeout
	}
	if opts.Grants == nil {
		opts.Grants = &MemoryGrants{}
	}
	return &Invocations{opts: opts, running: map[string]*call{}}
}

// Feed returns the feed every change is published to.
func (s *Invocations) Feed() *InvocationFeed { return s.opts.Feed }

// Policies returns the policy service calls are checked against, or nil
// when every call is allowed.
func (s *Invocations) Policies() *Policies { return s.opts.Policies }

// Cancel ends a pending or running call as cancelled. A finished call is
// returned as it is. A call stored as unfinished that no goroutine here
// runs (a stopped process left it) is ended as interrupted, with its
// audit row.
func (s *Invocations) Cancel(ctx context.Context, scope Scope, id string) (Invocation, error) {
	s.mu.Lock()
	c, ok := s.running[id]
	s.mu.Unlock()
	if ok && c.snapshot().Scope == scope {
		c.cancelByPerson()
		return c.wait(ctx)
	}
	if ok {
		return Invocation{}, fmt.Errorf("invocation %q: %w", id, ErrInvocationNotFound)
	}
	inv, err := s.opts.Store.Invocation(ctx, scope, id)
	if err != nil || inv.Status.Final() {
		return inv, err
	}
	return s.interruptOrphan(ctx, scope, id)
}

// Get returns one invocation of the scope; another scope's is not found.
func (s *Invocations) Get(ctx context.Context, scope Scope, id string) (Invocation, error) {
	s.mu.Lock()
	c, ok := s.running[id]
	s.mu.Unlock()
	if ok {
		if inv := c.snapshot(); inv.Scope == scope {
			return inv, nil
		}
		return Invocation{}, fmt.Errorf("invocation %q: %w", id, ErrInvocationNotFound)
	}
	return s.opts.Store.Invocation(ctx, scope, id)
}

// List returns the scope's invocations, newest first.
func (s *Invocations) List(ctx context.Context, scope Scope, f InvocationFilter) ([]Invocation, error) {
	return s.opts.Store.Invocations(ctx, scope, f)
}

// Prune deletes what ended before now minus retention.
func (s *Invocations) Prune(ctx context.Context, retention time.Duration) (int64, error) {
	return s.opts.Store.PruneBefore(ctx, s.opts.Clock.Now().Add(-retention))
}

// Close cancels every call in flight and waits for each to be recorded.
func (s *Invocations) Close(ctx context.Context) error {
	s.mu.Lock()
	calls := make([]*call, 0, len(s.running))
	for _, c := range s.running {
		calls = append(calls, c)
	}
	s.mu.Unlock()
	for _, c := range calls {
		c.cancelByPerson()
		if _, err := c.wait(ctx); err != nil {
			return err
		}
	}
	return nil
}

func randomID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
