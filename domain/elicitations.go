package domain

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"
)

// Errors of the elicitation service.
var (
	ErrElicitationNotFound = fmt.Errorf("elicitation not found: %w", ErrNotFound)
	// ErrBadElicitationAnswer is an answer whose action is not accept,
	// decline or cancel, or whose content is not a JSON object.
	ErrBadElicitationAnswer = errors.New("the answer must have action accept, decline or cancel, and content must be a JSON object")
)

// ErrTooManyElicitations refuses a question from a server that already
// has maxPendingPerServer waiting: a server may send as many as it likes,
// and each would hold memory and a place in the drawer until it timed out.
var ErrTooManyElicitations = errors.New("too many of this server's questions are waiting for the person already")

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

// Ask shows e to the person and waits for the answer, or for ctx (the
// call's) to end, when the question is withdrawn. It returns the
// elicitation result to send the server. publish, when set, is called
// once the question is shown and once it is gone, so the card of its
// call can say it waits. A server with maxPendingPerServer questions
// waiting already is refused (ErrTooManyElicitations).
func (s *Elicitations) Ask(ctx context.Context, e Elicitation, publish func()) (json.RawMessage, error) {
	e.ID, e.CreatedAt = s.opts.NewID(), s.opts.Clock.Now()
	p := &pendingElicitation{e: e, answer: make(chan ElicitationAnswer, 1)}
	s.mu.Lock()
	waiting := 0
	for _, q := range s.pending {
		if q.e.Server == e.Server {
			waiting++
		}
	}
	if waiting >= maxPendingPerServer {
		s.mu.Unlock()
		return nil, fmt.Errorf("%s: %w", e.Server, ErrTooManyElicitations)
	}
	s.pending[e.ID] = p
	s.mu.Unlock()
	s.opts.Log.Info("a server asks the person", "server", e.Server, "invocation", e.InvocationID, "elicitation", e.ID, "mode", e.Mode)
	s.changed()
	if publish != nil {
		publish()
	}
	defer func() {
		s.changed()
		if publish != nil {
			publish()
		}
	}()
	select {
	case a := <-p.answer:
		return elicitResult(a)
	case <-ctx.Done():
	}
	s.mu.Lock()
	withdrawn := s.pending[e.ID] == p
	delete(s.pending, e.ID)
	s.mu.Unlock()
	if !withdrawn {
		// Answer took it as ctx ended, and was told it reached the
		// server: send it, rather than contradict that.
		return elicitResult(<-p.answer)
	}
	s.opts.Log.Info("a server's question went unanswered", "server", e.Server, "invocation", e.InvocationID, "elicitation", e.ID)
	return nil, fmt.Errorf("nobody answered the server's question before the call ended: %w", ctx.Err())
}

// elicitResult is the ElicitResult JSON of a.
func elicitResult(a ElicitationAnswer) (json.RawMessage, error) {
	out := struct {
		Action  string          `json:"action"`
		Content json.RawMessage `json:"content,omitempty"`
	}{Action: a.Action}
	if a.Action == ElicitAccept {
		out.Content = a.Content
	}
	return json.Marshal(out)
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

// Answer hands the person's answer to the waiting server. An accepted
// form's content takes the schema's defaults for every property it
// omits, exactly as the prefilled form would send them; it is otherwise
// passed on as given (the dashboard warns a person about content that
// breaks the schema; the server judges it). A URL-mode answer carries no
// content. A question that is gone (answered, or its call ended, even a
// moment ago) is ErrElicitationNotFound, and its server gets nothing.
func (s *Elicitations) Answer(scope Scope, id string, a ElicitationAnswer) error {
	switch a.Action {
	case ElicitAccept, ElicitDecline, ElicitCancel:
	default:
		return ErrBadElicitationAnswer
	}
	p, err := s.waiting(scope, id)
	if err != nil {
		return err
	}
	switch {
	case a.Action == ElicitAccept && p.e.Mode == ElicitForm:
		content, err := WithSchemaDefaults(p.e.RequestedSchema, a.Content)
		if err != nil {
			return err
		}
		a.Content = content
	default:
		a.Content = nil
	}
	// Taken and handed over under the lock, so that Ask, ending with its
	// call, either withdraws the question first or finds the answer.
	s.mu.Lock()
	if s.pending[id] != p {
		s.mu.Unlock()
		return fmt.Errorf("elicitation %s: %w", id, ErrElicitationNotFound)
	}
	delete(s.pending, id) // answered once: a second answer finds nothing
	p.answer <- a         // never blocks: only the one who deleted it sends
	s.mu.Unlock()
	s.changed()
	return nil
}

// waiting returns the pending question id of scope (or of no call).
func (s *Elicitations) waiting(scope Scope, id string) (*pendingElicitation, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.pending[id]
	if !ok || (p.e.Scope != scope && p.e.InvocationID != "") {
		return nil, fmt.Errorf("elicitation %s: %w", id, ErrElicitationNotFound)
	}
	return p, nil
}

// WithSchemaDefaults returns content with each top-level property the
// schema gives a default, and content lacks, set to that default. Empty
// content is {}. Content that is not a JSON object is ErrBadElicitationAnswer.
func WithSchemaDefaults(schema, content json.RawMessage) (json.RawMessage, error) {
	obj := map[string]json.RawMessage{}
	if len(content) > 0 && string(content) != "null" {
		if err := json.Unmarshal(content, &obj); err != nil || obj == nil {
			return nil, ErrBadElicitationAnswer
		}
	}
	var root struct {
		Properties map[string]struct {
			Default json.RawMessage `json:"default"`
		} `json:"properties"`
	}
	_ = json.Unmarshal(schema, &root) // a schema it cannot read adds nothing
	added := false
	for name, prop := range root.Properties {
		if _, has := obj[name]; !has && len(prop.Default) > 0 {
			obj[name], added = prop.Default, true
		}
	}
	if !added && len(content) > 0 && string(content) != "null" {
		return content, nil
	}
	return json.Marshal(obj)
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

// PersonAsker puts a server's elicitation that belongs to no call to the
// person, in the server's drawer. It answers every other request with
// ErrNotAsked.
type PersonAsker struct{ Elicitations *Elicitations }

// Ask implements Asker.
func (a PersonAsker) Ask(ctx context.Context, req ServerRequest) (json.RawMessage, error) {
	if a.Elicitations == nil || req.Method != MethodElicit {
		return nil, fmt.Errorf("%w: the server sent %s outside any call, which has nobody to ask", ErrNotAsked, req.Method)
	}
	e, err := ParseElicitation(req.Server, req.Params)
	if err != nil {
		return nil, err
	}
	return a.Elicitations.Ask(ctx, e, nil)
}
