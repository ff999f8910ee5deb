package mcpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
)

// maxInputRounds bounds how often one call is sent again with answers to a
// 2026-07-28 server's input_required result; a server that keeps asking
// past it fails the call rather than holding the person forever.
const maxInputRounds = 8

// inputAnswerer answers the requests inside a 2026-07-28 input_required
// result (elicitation, sampling, roots). mcp-go calls it on the call's own
// context while it retries the call, so the Asker of the call is found
// there, exactly where the 2025 path (serverAsks) finds it: one person or
// client answers a server's questions whichever era the server speaks.
type inputAnswerer struct {
	server    string
	workspace string
	// people answers an elicitation of a call made without an Asker
	// (Options.NoCallAsker); nil refuses it.
	people domain.Asker
}

var (
	_ client.ElicitationHandler = inputAnswerer{}
	_ client.SamplingHandler    = inputAnswerer{}
	_ client.RootsHandler       = inputAnswerer{}
)

// inputOptions registers the answerer with mcp-go's multi round-trip loop.
func (a inputAnswerer) inputOptions() []client.ClientOption {
	return []client.ClientOption{
		client.WithElicitationHandler(a),
		client.WithSamplingHandler(a),
		client.WithRootsHandler(a),
		client.WithMaxInputRoundTrips(maxInputRounds),
	}
}

func (a inputAnswerer) Elicit(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	var res mcp.ElicitationResult
	return &res, a.ask(ctx, domain.MethodElicit, req.Params, &res)
}

func (a inputAnswerer) CreateMessage(ctx context.Context, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	var res mcp.CreateMessageResult
	return &res, a.ask(ctx, domain.MethodSample, req.CreateMessageParams, &res)
}

func (a inputAnswerer) ListRoots(ctx context.Context, _ mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	var res mcp.ListRootsResult
	return &res, a.ask(ctx, domain.MethodRoots, struct{}{}, &res)
}

// ask puts one request to the call's Asker and decodes its answer into
// out. When nobody can be asked, roots get the workspace (the request is
// part of a call, so the call's context applies) and elicitation and
// sampling decline the call with the reason (an elicitation of a call made
// without an Asker goes to people first), since an input_required result
// has no way to carry a refusal back to the server.
func (a inputAnswerer) ask(ctx context.Context, method string, params any, out any) error {
	raw, err := json.Marshal(params)
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	asker := domain.AskerFrom(ctx)
	if asker == nil && method == domain.MethodElicit {
		asker = a.people
	}
	var res json.RawMessage
	if asker == nil {
		err = fmt.Errorf("%w: the call was made without anyone to answer a server's %s", domain.ErrNotAsked, method)
	} else {
		res, err = asker.Ask(ctx, domain.ServerRequest{Server: a.server, Method: method, Params: raw})
	}
	if errors.Is(err, domain.ErrNotAsked) {
		if method == domain.MethodRoots {
			res, err = workspaceRoots(a.workspace), nil
		} else {
			return &declinedError{why: err}
		}
	}
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	if len(bytes.TrimSpace(res)) == 0 {
		res = json.RawMessage(`{}`)
	}
	if err := json.Unmarshal(res, out); err != nil {
		return fmt.Errorf("the answer to the server's %s: %w", method, err)
	}
	return nil
}

// declinedError is a server's request inside an input_required result that
// nobody could be asked. It fails the call, which the retry cannot carry a
// refusal in, with the words the handshake era's server hears in the
// JSON-RPC error of the same refusal (serverAsks.fallback), read as a
// decline.
type declinedError struct {
	why error // wraps domain.ErrNotAsked
}

func (e *declinedError) Error() string { return "declined: " + e.why.Error() }

func (e *declinedError) Unwrap() error { return e.why }

// declined returns the refusal inside a failed call's err, without what
// mcp-go's retry loop and the request categorizing wrapped around it, so
// that the call's card says why the call ended; any other err is returned
// as it is.
func declined(err error) error {
	var d *declinedError
	if errors.As(err, &d) {
		return d
	}
	return err
}
