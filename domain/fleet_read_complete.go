package domain

import (
	"context"
	"encoding/json"
	"fmt"
)

// The kinds of thing a completion can be asked for, as MCP names them.
const (
	RefPrompt   = "ref/prompt"
	RefResource = "ref/resource"
)

// CompletionRef says what the completed argument belongs to: a prompt, by
// Name, or a resource template, by URI.
type CompletionRef struct {
	Type string // RefPrompt or RefResource
	Name string // the prompt's name, for RefPrompt
	URI  string // the resource's URI or URI template, for RefResource
}

// CompleteRequest asks a server for the values one argument may take,
// given what was typed so far (Value) and the arguments already chosen
// (Context), which some servers use to narrow the answer.
type CompleteRequest struct {
	Ref      CompletionRef
	Argument string
	Value    string
	Context  map[string]string
}

// Validate reports, as ErrInvalidRequest, what a server could not make
// sense of, so that a mistake is explained before anything is sent.
func (r CompleteRequest) Validate() error {
	switch r.Ref.Type {
	case RefPrompt:
		if r.Ref.Name == "" {
			return fmt.Errorf("%w: a ref/prompt reference needs the prompt's name", ErrInvalidRequest)
		}
	case RefResource:
		if r.Ref.URI == "" {
			return fmt.Errorf("%w: a ref/resource reference needs the resource's uri", ErrInvalidRequest)
		}
	default:
		return fmt.Errorf("%w: the reference type must be %s or %s, not %q", ErrInvalidRequest, RefPrompt, RefResource, r.Ref.Type)
	}
	if r.Argument == "" {
		return fmt.Errorf("%w: the argument to complete needs a name", ErrInvalidRequest)
	}
	return nil
}

// Complete sends completion/complete through the server's connection. A
// prompt reference to a prompt the connected server does not list is
// refused before the server is asked.
func (f *Fleet) Complete(ctx context.Context, server string, req CompleteRequest) (json.RawMessage, error) {
	if err := req.Validate(); err != nil {
		return nil, err
	}
	sess, cfg, err := f.requestSession(server)
	if err != nil {
		return nil, err
	}
	if req.Ref.Type == RefPrompt {
		if err := f.checkPrompt(server, req.Ref.Name); err != nil {
			return nil, err
		}
	}
	ctx, cancel := context.WithTimeout(ctx, cfg.callTimeout())
	defer cancel()
	res, err := sess.Complete(ctx, req)
	if err != nil {
		return nil, requestFailed(ctx, cfg, "complete "+req.Argument, err)
	}
	return res, nil
}
