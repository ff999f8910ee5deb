package domain

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// The requests a server may send its client while one of its tools runs.
// They are answered for the one who made the call, never for anyone else.
const (
	MethodElicit = "elicitation/create"
	MethodSample = "sampling/createMessage"
	MethodRoots  = "roots/list"
)

// ServerRequest is a request a server sent its client during a call, with
// its params exactly as the server sent them, so that what reaches the
// client (or a person) is what the server asked.
type ServerRequest struct {
	Server string
	Method string
	Params json.RawMessage
}

// Asker puts a server's request to whoever made the call: the AI client
// of a gateway call (as a request on its session, or as an input_required
// result it answers by retrying), or, later, a person in the dashboard.
type Asker interface {
	// Ask returns the result exactly as the answerer gave it. An error
	// wrapping ErrNotAsked means the request never reached anyone (the
	// client did not declare the capability, or has gone), so the caller
	// answers the server in its stead; any other error is the answerer's
	// own failure and goes back to the server as it is.
	Ask(ctx context.Context, req ServerRequest) (json.RawMessage, error)
}

type askerKey struct{}

// WithAsker makes ctx carry the Asker of the call it belongs to, so the
// adapter that receives a server's request during that call can route it
// back to whoever made the call.
func WithAsker(ctx context.Context, a Asker) context.Context {
	return context.WithValue(ctx, askerKey{}, a)
}

// AskerFrom is the Asker ctx carries, or nil.
func AskerFrom(ctx context.Context) Asker {
	a, _ := ctx.Value(askerKey{}).(Asker)
	return a
}

// AskRecord is one request a server made during a call, kept on the
// invocation so the card shows that the server asked and how it ended.
type AskRecord struct {
	Method  string
	At      time.Time
	Outcome string // AskAnswered, AskAnsweredByPerson, AskNotAsked or AskFailed
	Detail  string // why it was not asked, or how it failed
}

// Outcomes of an AskRecord.
const (
	AskAnswered = "answered"
	// AskAnsweredByPerson is an elicitation a person answered in the
	// dashboard, since the call's caller could not be asked.
	AskAnsweredByPerson = "answered_by_person"
	AskNotAsked         = "not_asked"
	AskFailed           = "failed"
)

// maxAsks bounds the records one invocation keeps: a server may ask as
// often as it likes, the card needs only the first few.
const maxAsks = 20

// recordingAsker records every request on the call's card and passes it
// to the call's own Asker. An elicitation that Asker could not put to
// anyone (or a call with none: a person's Run, an API call) goes to the
// person, on the call's card; sampling is declined, since Switchboard has
// no model of its own; roots keep the workspace answer the adapter gives.
type recordingAsker struct {
	c     *call
	inner Asker
}

func (r recordingAsker) Ask(ctx context.Context, req ServerRequest) (json.RawMessage, error) {
	var (
		res json.RawMessage
		err error
	)
	switch {
	case r.inner != nil:
		res, err = r.inner.Ask(ctx, req)
	case req.Method == MethodSample:
		err = fmt.Errorf("%w: Switchboard has no language model to answer sampling/createMessage; only an AI client calling through the gateway that supports sampling can", ErrNotAsked)
	default:
		err = fmt.Errorf("%w: the call was made in Switchboard, which has nobody to answer a server's %s", ErrNotAsked, req.Method)
	}
	outcome := AskAnswered
	if errors.Is(err, ErrNotAsked) {
		res, err = r.askPerson(ctx, req, err)
		outcome = AskAnsweredByPerson
	}
	rec := AskRecord{Method: req.Method, At: r.c.svc.opts.Clock.Now(), Outcome: outcome}
	switch {
	case errors.Is(err, ErrNotAsked):
		rec.Outcome, rec.Detail = AskNotAsked, err.Error()
	case err != nil:
		rec.Outcome, rec.Detail = AskFailed, err.Error()
	}
	r.c.addAsk(rec)
	return res, err
}

// askPerson puts an elicitation to the person on the call's card, when
// the service has someone to ask; why is the reason nobody else was,
// which stays the answer to anything else.
func (r recordingAsker) askPerson(ctx context.Context, req ServerRequest, why error) (json.RawMessage, error) {
	people := r.c.svc.opts.Elicitations
	if req.Method != MethodElicit || people == nil {
		return nil, why
	}
	e, err := ParseElicitation(req.Server, req.Params)
	if err != nil {
		return nil, err
	}
	inv := r.c.snapshot()
	e.InvocationID, e.Scope = inv.ID, inv.Scope
	return people.Ask(ctx, e, r.c.republish)
}

// republish publishes the call as it is, so its card is drawn again (a
// question shown or gone).
func (c *call) republish() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.inv.Status.Final() {
		return
	}
	inv := c.svc.opts.Feed.publish(c.inv)
	c.inv.Version = inv.Version
}

// addAsk keeps rec on the card and publishes the change, like progress.
func (c *call) addAsk(rec AskRecord) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.inv.Asks) >= maxAsks {
		return
	}
	c.inv.Asks = append(c.inv.Asks, rec)
	inv := c.svc.opts.Feed.publish(c.inv)
	c.inv.Version = inv.Version
}
