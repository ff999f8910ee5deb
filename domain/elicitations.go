package domain

import (
	"encoding/json"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"
)

// Bounds on what a server's question may hold. Its text and schema are
// drawn in the dashboard on every poll and sent whole by the API, so a
// hostile server must not make them arbitrarily large; a message is cut
// (the card says so), anything else too large is refused. The message's
// bound is generous, like the schema's: the card shows a long message
// whole in a block that scrolls, and a gateway client always gets the
// server's params unchanged.
const (
	maxPendingPerServer   = 16
	maxElicitMessageBytes = 64 << 10
	maxElicitSchemaBytes  = 64 << 10
	maxElicitURLBytes     = 8 << 10
	maxElicitIDBytes      = 1 << 10
)

// Elicitation modes (MCP 2025-11-25): a form built from a schema, or a
// URL the person opens in the browser.
const (
	ElicitForm = "form"
	ElicitURL  = "url"
)

// Actions a person (or the API) answers an elicitation with.
const (
	ElicitAccept  = "accept"
	ElicitDecline = "decline"
	ElicitCancel  = "cancel"
)

// Elicitation is a server's elicitation/create waiting for a person's
// answer. The message, schema and URL are the server's, untrusted.
type Elicitation struct {
	ID     string
	Server string
	// InvocationID is the call the server asked during; empty for a
	// request that belongs to no call, shown in the server's drawer.
	InvocationID string
	Scope        Scope // the call's; zero for a request of no call
	Mode         string
	// Message is the server's text, cut to maxElicitMessageBytes.
	Message string
	// MessageBytes is the length of the message the server sent, so the
	// person can be told when Message is only its start.
	MessageBytes int
	// RequestedSchema is the form's schema exactly as the server sent it;
	// empty in URL mode.
	RequestedSchema json.RawMessage
	URL             string // URL mode only
	ElicitationID   string // URL mode only: the server's id of the request
	CreatedAt       time.Time
}

// ElicitationAnswer is what the person decided.
type ElicitationAnswer struct {
	Action  string
	Content json.RawMessage // accept in form mode: a JSON object
}

// ElicitationsOptions wires the service.
type ElicitationsOptions struct {
	Clock Clock
	NewID func() string
	Log   *slog.Logger
}

// Elicitations holds the servers' questions to the person until each is
// answered or its call ends, so the dashboard and the API can show and
// answer them.
type Elicitations struct {
	opts ElicitationsOptions

	mu      sync.Mutex // guards pending and subs
	pending map[string]*pendingElicitation
	subs    map[chan struct{}]struct{}
}

type pendingElicitation struct {
	e      Elicitation
	answer chan ElicitationAnswer // holds at most one
}

// NewElicitations returns a service with nothing pending.
func NewElicitations(opts ElicitationsOptions) *Elicitations {
	if opts.Clock == nil {
		opts.Clock = SystemClock{}
	}
	if opts.NewID == nil {
		opts.NewID = randomID
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return &Elicitations{opts: opts, pending: map[string]*pendingElicitation{}, subs: map[chan struct{}]struct{}{}}
}

// List returns the questions waiting in scope, and those that belong to
// no call, oldest first.
func (s *Elicitations) List(scope Scope) []Elicitation {
	s.mu.Lock()
	out := make([]Elicitation, 0, len(s.pending))
	for _, p := range s.pending {
		if p.e.Scope == scope || p.e.InvocationID == "" {
			out = append(out, p.e)
		}
	}
	s.mu.Unlock()
	slices.SortFunc(out, func(a, b Elicitation) int {
		if c := a.CreatedAt.Compare(b.CreatedAt); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out
}

// Get returns one waiting question of scope (or of no call).
func (s *Elicitations) Get(scope Scope, id string) (Elicitation, error) {
	p, err := s.waiting(scope, id)
	if err != nil {
		return Elicitation{}, err
	}
	return p.e, nil
}

// ForInvocation returns the question the call with id waits on, if any.
func (s *Elicitations) ForInvocation(scope Scope, id string) (Elicitation, bool) {
	var found Elicitation
	ok := false
	for _, e := range s.List(scope) {
		if e.InvocationID == id && id != "" {
			found, ok = e, true
		}
	}
	return found, ok
}

// ForServer returns the questions of server that belong to no call.
func (s *Elicitations) ForServer(server string) []Elicitation {
	var out []Elicitation
	for _, e := range s.List(Scope{}) {
		if e.Server == server && e.InvocationID == "" {
			out = append(out, e)
		}
	}
	return out
}

// Subscribe returns a channel that is signalled whenever a question is
// added or goes away, and the function that ends the subscription.
func (s *Elicitations) Subscribe() (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	s.mu.Lock()
	s.subs[ch] = struct{}{}
	s.mu.Unlock()
	return ch, func() {
		s.mu.Lock()
		delete(s.subs, ch)
		s.mu.Unlock()
	}
}

func (s *Elicitations) changed() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for ch := range s.subs {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}
