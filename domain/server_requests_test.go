package domain_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
)

// askerFunc lets a test answer a server's requests inline.
type askerFunc func(ctx context.Context, req domain.ServerRequest) (json.RawMessage, error)

func (f askerFunc) Ask(ctx context.Context, req domain.ServerRequest) (json.RawMessage, error) {
	return f(ctx, req)
}

// askDuringCall makes srv's session ask method once during every call and
// put the answer (or the error) in the tool's result.
func askDuringCall(ir *invRig, method string) {
	ir.sess.OnCall(func(ctx context.Context, _ string, _ json.RawMessage, _ func(domain.Progress)) (json.RawMessage, error) {
		a := domain.AskerFrom(ctx)
		if a == nil {
			return nil, errors.New("the call's ctx carries no Asker")
		}
		res, err := a.Ask(ctx, domain.ServerRequest{Server: "srv", Method: method, Params: json.RawMessage(`{"message":"sure?"}`)})
		text := string(res)
		if err != nil {
			text = "error: " + err.Error()
		}
		b, _ := json.Marshal(text)
		return json.RawMessage(fmt.Sprintf(`{"content":[{"type":"text","text":%s}]}`, b)), nil
	})
}

func TestServerRequestReachesTheCallsAsker(t *testing.T) {
	ir := newInvRig(t, nil)
	askDuringCall(ir, domain.MethodElicit)
	var got domain.ServerRequest
	asker := askerFunc(func(_ context.Context, req domain.ServerRequest) (json.RawMessage, error) {
		got = req
		return json.RawMessage(`{"action":"accept","content":{"ok":true}}`), nil
	})
	inv, err := ir.svc.Call(context.Background(), domain.CallRequest{Scope: ir.scope, Server: "srv", Tool: "slow", Asker: asker})
	if err != nil {
		t.Fatal(err)
	}
	if got.Method != domain.MethodElicit || string(got.Params) != `{"message":"sure?"}` || got.Server != "srv" {
		t.Errorf("asker saw %+v", got)
	}
	if !strings.Contains(string(inv.Result), `accept`) {
		t.Errorf("result %s does not carry the answer", inv.Result)
	}
	if len(inv.Asks) != 1 || inv.Asks[0].Outcome != domain.AskAnswered || inv.Asks[0].Method != domain.MethodElicit || inv.Asks[0].At.IsZero() {
		t.Errorf("asks %+v; want one answered elicitation", inv.Asks)
	}
}

func TestServerRequestOfACallNobodyCanBeAskedAbout(t *testing.T) {
	ir := newInvRig(t, nil)
	askDuringCall(ir, domain.MethodSample)
	inv, err := ir.svc.Call(context.Background(), domain.CallRequest{Scope: ir.scope, Server: "srv", Tool: "slow"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(inv.Result), "no language model") {
		t.Errorf("result %s; want the reason nobody was asked", inv.Result)
	}
	if len(inv.Asks) != 1 || inv.Asks[0].Outcome != domain.AskNotAsked || inv.Asks[0].Detail == "" {
		t.Errorf("asks %+v; want one not_asked with its reason", inv.Asks)
	}
}

func TestServerRequestFailureIsRecorded(t *testing.T) {
	ir := newInvRig(t, nil)
	askDuringCall(ir, domain.MethodRoots)
	asker := askerFunc(func(context.Context, domain.ServerRequest) (json.RawMessage, error) {
		return nil, errors.New("client hung up")
	})
	inv, err := ir.svc.Call(context.Background(), domain.CallRequest{Scope: ir.scope, Server: "srv", Tool: "slow", Asker: asker})
	if err != nil {
		t.Fatal(err)
	}
	if len(inv.Asks) != 1 || inv.Asks[0].Outcome != domain.AskFailed || inv.Asks[0].Detail != "client hung up" {
		t.Errorf("asks %+v; want one failed with the client's error", inv.Asks)
	}
}

// A result larger than the store keeps is cut on the card, but a caller
// that passes it on (the gateway) gets it whole.
func TestCallWholeReturnsTheUncutResult(t *testing.T) {
	ir := newInvRig(t, nil)
	ir.svc = domain.NewInvocations(domain.InvocationsOptions{Caller: ir.fleet, Catalog: ir.fleet, Store: ir.store,
		Clock: ir.clock, MaxResultBytes: 1024})
	t.Cleanup(func() { _ = ir.svc.Close(context.Background()) })
	big := strings.Repeat("x", 4096)
	ir.sess.OnCall(func(context.Context, string, json.RawMessage, func(domain.Progress)) (json.RawMessage, error) {
		return json.RawMessage(`{"content":[{"type":"text","text":"` + big + `"}]}`), nil
	})
	inv, whole, err := ir.svc.CallWhole(context.Background(), domain.CallRequest{Scope: ir.scope, Server: "srv", Tool: "slow"})
	if err != nil {
		t.Fatal(err)
	}
	if !inv.Truncated || len(inv.Result) > 1024 {
		t.Errorf("stored result %d bytes, truncated %v; want cut to the cap", len(inv.Result), inv.Truncated)
	}
	if !strings.Contains(string(whole), big) {
		t.Errorf("whole result is %d bytes; want the server's %d", len(whole), len(big))
	}
	ir.sess.OnCall(func(context.Context, string, json.RawMessage, func(domain.Progress)) (json.RawMessage, error) {
		return json.RawMessage(`{"content":[]}`), nil
	})
	small, whole, err := ir.svc.CallWhole(context.Background(), domain.CallRequest{Scope: ir.scope, Server: "srv", Tool: "slow"})
	if err != nil || small.Truncated || string(whole) != string(small.Result) {
		t.Errorf("small result: %v, truncated %v, whole %s vs stored %s", err, small.Truncated, whole, small.Result)
	}
}
