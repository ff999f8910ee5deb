package mcpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
)

// ErrArgsNotObject marks tool arguments that are not a JSON object, which
// tools/call cannot carry. It is the caller's mistake, not the
// connection's, so it is not a *domain.ConnError and never ends a session.
var ErrArgsNotObject = fmt.Errorf("tool arguments: %w", domain.ErrBadArguments)

// CallTool sends tools/call with a fresh progress token and reports the
// server's progress notifications for it to progress, which may be nil.
// Every notification is delivered before CallTool returns, and none after.
// The result is mcp-go's CallToolResult encoded again, since mcp-go keeps
// no raw copy; it round-trips every content type (see call_test.go). Its
// MarshalJSON is called directly: json.Marshal would check and copy its
// output twice more, which for a result near the message limit costs tens
// of megabytes at the peak.
func (s *session) CallTool(ctx context.Context, tool string, args json.RawMessage, progress func(domain.Progress)) (json.RawMessage, error) {
	argMap, err := decodeArgs(args)
	if err != nil {
		return nil, fmt.Errorf("call %s: %w", tool, err)
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = tool
	req.Params.Arguments = argMap
	if progress != nil {
		token, queue := s.calls.open()
		delivered := make(chan struct{})
		go func() {
			defer close(delivered)
			for p := range queue {
				progress(p)
			}
		}()
		defer func() {
			s.calls.close(token)
			<-delivered
		}()
		req.Params.Meta = &mcp.Meta{ProgressToken: token}
	}
	ex := &exchange{}
	rctx, cancel := s.bound(withExchange(ctx, ex))
	defer cancel()
	res, err := s.client.CallTool(rctx, req)
	if err != nil {
		return nil, s.requestFailed(ctx, ex, "call "+tool, err)
	}
	out, err := res.MarshalJSON()
	if err != nil {
		return nil, &domain.ConnError{Category: domain.CategoryProtocol, Err: fmt.Errorf("call %s: encode result: %w", tool, err)}
	}
	return out, nil
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

// ReadResource sends resources/read and returns mcp-go's result encoded
// again. A server that refuses the read (an unknown URI) fails it with a
// *domain.ServerError and the session stays up.
func (s *session) ReadResource(ctx context.Context, uri string) (json.RawMessage, error) {
	req := mcp.ReadResourceRequest{}
	req.Params.URI = uri
	ex := &exchange{}
	rctx, cancel := s.bound(withExchange(ctx, ex))
	defer cancel()
	res, err := s.client.ReadResource(rctx, req)
	if err != nil {
		return nil, s.requestFailed(ctx, ex, "read "+uri, err)
	}
	out, err := json.Marshal(res)
	if err != nil {
		return nil, &domain.ConnError{Category: domain.CategoryProtocol, Err: fmt.Errorf("read %s: encode result: %w", uri, err)}
	}
	return out, nil
}
