package mcpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
)

// CallTool sends tools/call with a fresh progress token and reports the
// server's progress notifications for it to progress, which may be nil.
// Every notification is delivered before CallTool returns, and none after.
// The result is the bytes the server sent: mcp-go's decoded result would
// add empty descriptions and titles and drop icons and unknown fields,
// and encoding it again would cost a second copy of a large result.
// Requests the server sends while the call runs go to the Asker ctx
// carries (see serverAsks).
//
// A stdio session sends the call past mcp-go (see directCalls) unless the
// 2026-07-28 _meta is not known yet; a 2026-07-28 server that answers
// input_required gets the call again through mcp-go, which answers the
// server's requests and sends it once more with the answers.
func (s *session) CallTool(ctx context.Context, tool string, args json.RawMessage, progress func(domain.Progress)) (json.RawMessage, error) {
	tr, isDirect := s.direct()
	var body json.RawMessage
	var err error
	if isDirect {
		body, err = directArgs(args)
		if err != nil {
			return nil, fmt.Errorf("call %s: %w", tool, err)
		}
	}
	ctx, done := s.running.start(ctx)
	defer done()
	var token string
	if progress != nil {
		var closeRoute func()
		token, closeRoute = s.calls.open(progress)
		defer closeRoute()
	}
	op := "call " + tool
	if isDirect {
		modern := mcp.IsModernProtocol(s.version)
		if meta, ok := tr.direct.params(token, modern); ok {
			res, err := s.sendRaw(ctx, op, func(ctx context.Context) error {
				return callDirect(ctx, tr, tool, body, meta)
			})
			if err != nil || !modern || !inputRequired(res) {
				return res, err
			}
		}
	}
	req, err := callRequest(tool, args)
	if err != nil {
		return nil, err
	}
	if token != "" {
		req.Params.Meta = &mcp.Meta{ProgressToken: token}
	}
	res, err := s.sendRaw(ctx, op, func(ctx context.Context) error {
		_, err := s.client.CallTool(ctx, req)
		return err
	})
	return res, declined(err)
}

// callRequest is tools/call of tool with args as the object to send.
func callRequest(tool string, args json.RawMessage) (mcp.CallToolRequest, error) {
	argMap, err := decodeArgs(args)
	if err != nil {
		return mcp.CallToolRequest{}, fmt.Errorf("call %s: %w", tool, err)
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = tool
	req.Params.Arguments = argMap
	return req, nil
}

// decodeArgs turns the caller's JSON into the object mcp-go sends. Nil,
// empty and null become {}: mcp-go would send null, which servers reject.
func decodeArgs(args json.RawMessage) (map[string]any, error) {
	trimmed := bytes.TrimSpace(args)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		return map[string]any{}, nil
	}
	if trimmed[0] != '{' {
		return nil, ErrArgsNotObject
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.UseNumber() // keeps integers above 2^53 exact
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrArgsNotObject, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%w: trailing data", ErrArgsNotObject)
	}
	return m, nil
}

// ReadResource sends resources/read and returns the result as the server
// sent it. A server that refuses the read (an unknown URI) fails it with a
// *domain.ServerError and the session stays up.
func (s *session) ReadResource(ctx context.Context, uri string) (json.RawMessage, error) {
	req := mcp.ReadResourceRequest{}
	req.Params.URI = uri
	return s.sendRaw(ctx, "read "+uri, func(ctx context.Context) error {
		_, err := s.client.ReadResource(ctx, req)
		return err
	})
}
