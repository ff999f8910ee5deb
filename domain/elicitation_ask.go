package domain

// A server's question reaching the person, and the answer going back.

import (
	"context"
	"encoding/json"
	"fmt"
)

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
