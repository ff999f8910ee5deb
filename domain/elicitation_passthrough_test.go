package domain_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
)

// A gateway client is asked with the server's own params, byte for byte,
// however long the message: only what the person is shown is bounded.
func TestElicitationReachesTheClientUnchanged(t *testing.T) {
	ir := newInvRig(t, nil)
	params := json.RawMessage(`{"message":"` + strings.Repeat("long ", 40000) + `","requestedSchema":{"type":"object","properties":{"code":{"type":"string","pattern":"^(a+)+$"}}},"_meta":{"x":1}}`)
	ir.sess.OnCall(func(ctx context.Context, _ string, _ json.RawMessage, _ func(domain.Progress)) (json.RawMessage, error) {
		a := domain.AskerFrom(ctx)
		if a == nil {
			return nil, errors.New("the call's ctx carries no Asker")
		}
		if _, err := a.Ask(ctx, domain.ServerRequest{Server: "srv", Method: domain.MethodElicit, Params: params}); err != nil {
			return nil, fmt.Errorf("ask: %w", err)
		}
		return json.RawMessage(`{"content":[]}`), nil
	})
	var got json.RawMessage
	client := askerFunc(func(_ context.Context, req domain.ServerRequest) (json.RawMessage, error) {
		got = req.Params
		return json.RawMessage(`{"action":"decline"}`), nil
	})
	if _, err := ir.svc.Call(context.Background(), domain.CallRequest{Scope: ir.scope, Server: "srv", Tool: "slow", Asker: client}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, params) {
		t.Errorf("the client got %d bytes of params, want the server's %d unchanged", len(got), len(params))
	}
}
