package domain

// Starting a call: the request, its checks, and a retry of a finished one.

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
)

// CallRequest is one call a person or client asks for.
type CallRequest struct {
	Scope     Scope
	Key       CallKey // ToolCallID and MessageID are generated when empty
	Server    string
	Tool      string
	Arguments json.RawMessage // a JSON object; empty means {}
	RetryOf   string
	// SkipValidation sends arguments that break the tool's schema anyway,
	// recording the violations as the invocation's Mismatch: a person
	// chose Send anyway, or the API was asked validate=false. Defaults are
	// still filled in.
	SkipValidation bool
	// Forwarded marks a call an AI client made through the gateway: its
	// arguments are sent exactly as the client wrote them, with no
	// defaults filled in, and never refused for breaking the schema (the
	// server judges them); violations are recorded as Mismatch.
	Forwarded bool
	// AsTask runs a tool whose taskSupport is optional as a task; tools
	// that require it always run as one.
	AsTask bool
	// Source is where the call came from: SourceDashboard, SourceAPI or
	// SourceGateway; empty reads as the dashboard.
	Source string
	// Client identifies the AI client of a gateway call.
	Client ClientIdentity
	// Asker answers the requests the server sends while the call runs
	// (elicitation, sampling, roots) for whoever made it; nil for calls
	// nobody can be asked about.
	Asker Asker
}

// Start checks the server's state, the tool and its arguments, records the
// call as pending and runs it in the background. The pending invocation is
// returned at once. A person's call that Runnable refuses (a blocked,
// disabled or disconnected server, an unknown tool) is refused before
// anything is recorded: it could only fail, and a card for it would say
// less than the refusal does. A dashboard call's pending state is queued
// rather than waited for: the page learns of the call from the feed and
// hands its id to nobody, so only its final state must reach the disk
// before anything else (see savePending).
func (s *Invocations) Start(ctx context.Context, req CallRequest) (Invocation, error) {
	dashboard := req.Source == "" || req.Source == SourceDashboard
	inv, _, err := s.start(ctx, req, nil, dashboard)
	return inv, err
}

// start is Start with the pointers of values an earlier call took from
// defaults, which a retry sends again as they were. With queuePending the
// pending state is stored without waiting for the disk, for a caller that
// tells nobody of the call before it ends (see savePending).
func (s *Invocations) start(ctx context.Context, req CallRequest, inherited []string, queuePending bool) (Invocation, *call, error) {
	args, err := normalizeArgs(req.Arguments)
	if err != nil {
		return Invocation{}, nil, err
	}
	tool, err := s.callable(ctx, req)
	if err != nil {
		return Invocation{}, nil, err
	}
	if req.Source == "" {
		req.Source = SourceDashboard
	}
	policy, err := s.policy(ctx, req, tool)
	if err != nil {
		return Invocation{}, nil, err
	}
	checked, err := s.checkArguments(req, tool, args)
	if err != nil {
		return Invocation{}, nil, err
	}
	ask := policy == PolicyAsk && !s.takeGrant(ctx, req, checked.args)
	// Only a key the caller chose can be a replay, which only the store
	// can tell.
	chosenKey := req.Key.MessageID != "" && req.Key.ToolCallID != ""
	if req.Key.MessageID == "" {
		req.Key.MessageID = s.opts.NewID()
	}
	if req.Key.ToolCallID == "" {
		req.Key.ToolCallID = s.opts.NewID()
	}
	inv := Invocation{
		ID: s.opts.NewID(), Scope: req.Scope, Key: req.Key, ServerName: req.Server, Tool: req.Tool,
		Arguments: checked.args, Defaults: slices.Concat(inherited, checked.defaults), Mismatch: checked.mismatch,
		Status: InvocationPending, RetryOf: req.RetryOf, StartedAt: s.opts.Clock.Now(),
		Source: req.Source, Client: req.Client,
	}
	c := &call{svc: s, inv: inv, asker: req.Asker, asTask: runsAsTask(tool, req.AsTask), done: make(chan struct{}),
		ask: ask, decisions: make(chan decision, 1), held: make(chan struct{})}
	// The call is known in memory before anyone can see it stored, so a
	// Cancel never takes it for one a stopped process left behind.
	s.mu.Lock()
	s.running[inv.ID] = c
	s.mu.Unlock()
	if err := c.savePending(ctx, queuePending && !chosenKey); err != nil {
		s.mu.Lock()
		delete(s.running, inv.ID)
		s.mu.Unlock()
		close(c.done) // a Close that saw it must not wait for it
		return Invocation{}, nil, err
	}
	pending := c.snapshot()
	go c.runOnce()
	return pending, c, nil
}

// Retry runs a finished call's arguments again as a new invocation; the
// values that came from defaults are still marked as such.
func (s *Invocations) Retry(ctx context.Context, scope Scope, id string) (Invocation, error) {
	old, err := s.Get(ctx, scope, id)
	if err != nil {
		return Invocation{}, err
	}
	// The stored arguments are what was sent; a call first sent in spite
	// of its schema is sent again the same way, and one that ran as a task
	// runs as a task again.
	inv, _, err := s.start(ctx, CallRequest{Scope: scope, Key: CallKey{ConversationID: old.Key.ConversationID},
		Server: old.ServerName, Tool: old.Tool, Arguments: old.Arguments, RetryOf: old.ID,
		SkipValidation: len(old.Mismatch) > 0, AsTask: old.Task != nil}, old.Defaults, false)
	return inv, err
}

// callable is Runnable for a person's call. An AI client's call to a
// server that is not connected is held until it is (awaitConnected) and
// then looks the tool up.
func (s *Invocations) callable(ctx context.Context, req CallRequest) (Tool, error) {
	if req.Source != SourceGateway && !req.Forwarded {
		return s.Runnable(req.Server, req.Tool)
	}
	st, err := s.opts.Catalog.Status(req.Server)
	if err != nil {
		return Tool{}, err
	}
	if err := refusal(st); err != nil {
		return Tool{}, err
	}
	if err := s.awaitConnected(ctx, req, st); err != nil {
		return Tool{}, err
	}
	return s.lookupTool(req.Server, req.Tool)
}

func findTool(c Capabilities, name string) (Tool, bool) {
	for _, t := range c.Tools {
		if t.Name == name {
			return t, true
		}
	}
	return Tool{}, false
}

// normalizeArgs accepts a JSON object (or nothing, meaning {}) and returns
// it compacted.
func normalizeArgs(raw json.RawMessage) (json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return json.RawMessage(`{}`), nil
	}
	// Checked here too, so every way a call starts (API, form, gateway)
	// refuses what the store could not keep.
	if err := CheckJSONDepth(raw, MaxArgumentsDepth); err != nil {
		return nil, err
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return nil, ErrBadArguments
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return nil, ErrBadArguments
	}
	return buf.Bytes(), nil
}
