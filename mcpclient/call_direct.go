package mcpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// directCalls sends a stdio session's tools/call straight to the
// transport. mcp-go's CallTool encodes the params to add the 2026-07-28
// _meta, decodes them again, looks the tool's schema up for HTTP headers
// stdio never sends and decodes a result Switchboard discards (it keeps
// the bytes the server sent); on a 2-core machine that work competes with
// the server for every call. The request sent here carries what mcp-go
// would put in it for the session's era: on 2026-07-28 the _meta mcp-go
// itself last sent (protocol version, client info, capabilities, log
// level), which is learnt from mcp-go's own requests so that the two can
// never differ, and the progress token.
type directCalls struct {
	// meta is the era's _meta members, as a JSON object, taken from the
	// last request mcp-go sent on a 2026-07-28 session; nil until then,
	// and after the log level changes, which mcp-go keeps to itself until
	// its next request. Calls without it go through mcp-go.
	meta atomic.Pointer[[]byte]
}

// eraMetaKeys are the _meta members mcp-go adds to every 2026-07-28
// request (applyRequestMeta); any other member belongs to one request.
var eraMetaKeys = []string{
	mcp.MetaKeyProtocolVersion,
	mcp.MetaKeyClientCapabilities,
	mcp.MetaKeyClientInfo,
	mcp.MetaKeyLogLevel,
}

// learn keeps the era's _meta of a request mcp-go sends. The discovery
// probe is skipped: it is sent before the version is settled.
func (d *directCalls) learn(req transport.JSONRPCRequest) {
	if d == nil || req.Method == string(mcp.MethodServerDiscover) || req.Method == string(mcp.MethodInitialize) {
		return
	}
	fields, ok := req.Params.(map[string]json.RawMessage)
	if !ok {
		return // a legacy request: mcp-go adds nothing to it
	}
	var meta map[string]json.RawMessage
	if json.Unmarshal(fields["_meta"], &meta) != nil || meta[mcp.MetaKeyProtocolVersion] == nil {
		return
	}
	era := make(map[string]json.RawMessage, len(eraMetaKeys))
	for _, k := range eraMetaKeys {
		if v, ok := meta[k]; ok {
			era[k] = v
		}
	}
	b, err := json.Marshal(era)
	if err != nil {
		return
	}
	d.meta.Store(&b)
}

// forget drops the learnt _meta, so that the next call goes through
// mcp-go and teaches the current one.
func (d *directCalls) forget() {
	if d != nil {
		d.meta.Store(nil)
	}
}

// params returns the _meta a call sends: the era's members and the
// progress token, if any; ok is false when the session is 2026-07-28
// (modern) and the era's members are not known yet.
func (d *directCalls) params(token string, modern bool) (meta json.RawMessage, ok bool) {
	var era *[]byte
	if modern {
		if era = d.meta.Load(); era == nil {
			return nil, false
		}
	}
	if token == "" {
		if era == nil {
			return nil, true
		}
		return *era, true
	}
	tok, err := json.Marshal(token)
	if err != nil {
		return nil, false
	}
	b := make([]byte, 0, 20+len(tok)+lenOf(era))
	b = append(b, `{"progressToken":`...)
	b = append(b, tok...)
	if era != nil && len(*era) > 2 {
		b = append(b, ',')
		b = append(b, (*era)[1:]...)
	} else {
		b = append(b, '}')
	}
	return b, true
}

func lenOf(b *[]byte) int {
	if b == nil {
		return 0
	}
	return len(*b)
}

// directParams is a tools/call's params as mcp-go would send them, with
// the caller's arguments as they came.
type directParams struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Meta      json.RawMessage `json:"_meta,omitempty"`
}

// directIDs numbers the requests sent past mcp-go. They start far above
// any number mcp-go's own per-client counter reaches, so that the
// transport never matches a response to the wrong request, and stay
// below 2^53, which servers written in JavaScript keep exactly.
var directIDs atomic.Int64

const directIDBase = int64(1) << 40

// direct returns the session's stdio transport and its direct-call state
// when calls may bypass mcp-go.
func (s *session) direct() (rawStdio, bool) {
	if s.client == nil {
		return rawStdio{}, false
	}
	t, ok := s.client.GetTransport().(rawStdio)
	if !ok || t.direct == nil {
		return rawStdio{}, false
	}
	return t, true
}

// forgetCallMeta makes the next call go through mcp-go, which then sends
// the session's current _meta (such as a new log level) and so teaches it
// to the direct path.
func (s *session) forgetCallMeta() {
	if t, ok := s.direct(); ok {
		t.direct.forget()
	}
}

// directArgs checks that args is one JSON object, and returns it, or {}
// for nothing or null (mcp-go would send null, which servers reject).
func directArgs(args json.RawMessage) (json.RawMessage, error) {
	trimmed := bytes.TrimSpace(args)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		return json.RawMessage(`{}`), nil
	}
	if trimmed[0] != '{' {
		return nil, ErrArgsNotObject
	}
	if !json.Valid(trimmed) {
		return nil, fmt.Errorf("%w: not valid JSON", ErrArgsNotObject)
	}
	return trimmed, nil
}

// callDirect sends tools/call with meta (see directCalls.params) through
// t and fails as mcp-go's sendRequest would: a transport failure wrapped
// in transport.Error, a JSON-RPC error as mcp-go's error for it, and a
// call whose ctx ended is cancelled at the server with
// notifications/cancelled. The result is captured by the transport, as
// mcp-go's requests' are.
func callDirect(ctx context.Context, t rawStdio, tool string, args, meta json.RawMessage) error {
	req := transport.JSONRPCRequest{
		JSONRPC: mcp.JSONRPC_VERSION,
		ID:      mcp.NewRequestId(directIDBase + directIDs.Add(1)),
		Method:  string(mcp.MethodToolsCall),
		Params:  directParams{Name: tool, Arguments: args, Meta: meta},
	}
	if err := ctx.Err(); err != nil {
		return transport.NewError(err)
	}
	resp, err := t.SendRequest(ctx, req)
	if err != nil {
		if ctx.Err() != nil {
			cancelAtServer(ctx, t, req.ID)
		}
		return transport.NewError(err)
	}
	if resp.Error != nil {
		return resp.Error.AsError()
	}
	return nil
}

// cancelTimeout bounds sending notifications/cancelled, as mcp-go does.
const cancelTimeout = 5 * time.Second

// cancelAtServer tells the server to stop working on request id, off the
// caller's path: the caller already has its error, and a server that does
// not read must not hold it up. It is best effort.
func cancelAtServer(ctx context.Context, t rawStdio, id mcp.RequestId) {
	n := mcp.JSONRPCNotification{
		JSONRPC: mcp.JSONRPC_VERSION,
		Notification: mcp.Notification{
			Method: string(mcp.MethodNotificationCancelled),
			Params: mcp.NotificationParams{
				AdditionalFields: map[string]any{"requestId": id, "reason": ctx.Err().Error()},
			},
		},
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cancelTimeout)
	go func() {
		defer cancel()
		_ = t.SendNotification(ctx, n)
	}()
}

// inputRequired reports, cheaply for a large result, whether res is a
// 2026-07-28 request for more input.
func inputRequired(res json.RawMessage) bool {
	return bytes.Contains(res, []byte(`"input_required"`)) && needsInput(res)
}
