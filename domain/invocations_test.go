package domain_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
)

// invRig is a fleet with one connected server "srv" offering tools, and
// the invocation service over it.
type invRig struct {
	*rig
	sess  *domaintest.Session
	store *domaintest.InvocationStore
	svc   *domain.Invocations
	feed  *domain.InvocationSubscription
	scope domain.Scope
}

func newInvRig(t *testing.T, validator domain.SchemaValidator) *invRig {
	t.Helper()
	r := newRig(t, nil)
	cfg := server("srv")
	cfg.CallTimeout = time.Minute
	r.attach(cfg)
	sess := domaintest.NewSession(domain.Capabilities{Tools: []domain.Tool{
		{Name: "echo", InputSchema: []byte(`{"type":"object","required":["message"]}`)}, {Name: "slow"}}})
	r.conn.Next(t).Succeed(sess)
	r.waitPhase("srv", domain.PhaseConnected)
	ir := &invRig{rig: r, sess: sess, store: domaintest.NewInvocationStore(), scope: domain.Scope{User: "local", Workspace: "/w"}}
	ir.svc = domain.NewInvocations(domain.InvocationsOptions{Caller: r.fleet, Catalog: r.fleet, Store: ir.store,
		Validator: validator, Clock: r.clock})
	ir.feed = ir.svc.Feed().Subscribe(ir.scope)
	t.Cleanup(func() {
		ir.feed.Close()
		_ = ir.svc.Close(context.Background())
	})
	return ir
}

// statuses collects the feed's changes of id until one is final.
func (ir *invRig) statuses(t *testing.T, id string) []domain.Invocation {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var seen []domain.Invocation
	for {
		batch, err := ir.feed.Next(ctx)
		if err != nil {
			t.Fatalf("invocation %s never finished; saw %v", id, seen)
		}
		for _, inv := range batch {
			if inv.ID == id {
				seen = append(seen, inv)
				if inv.Status.Final() {
					return seen
				}
			}
		}
	}
}

func order(invs []domain.Invocation) string {
	var s []string
	for _, inv := range invs {
		s = append(s, string(inv.Status))
	}
	return strings.Join(s, ",")
}

func TestInvocationGoesPendingRunningSuccess(t *testing.T) {
	ir := newInvRig(t, nil)
	ir.sess.OnCall(func(ctx context.Context, tool string, args json.RawMessage, progress func(domain.Progress)) (json.RawMessage, error) {
		progress(domain.Progress{Progress: 1, Total: 2, Message: "half"})
		return json.RawMessage(`{"content":[{"type":"text","text":"` + string(tool) + `"}]}`), nil
	})
	inv, err := ir.svc.Start(context.Background(), domain.CallRequest{Scope: ir.scope, Server: "srv", Tool: "echo",
		Arguments: json.RawMessage(`{"message": "hi"}`), Key: domain.CallKey{ConversationID: "c1"}})
	if err != nil {
		t.Fatal(err)
	}
	if inv.Status != domain.InvocationPending || string(inv.Arguments) != `{"message":"hi"}` || inv.Key.ToolCallID == "" {
		t.Errorf("Start = %s args %s key %+v; want pending, compact args, a generated tool call id", inv.Status, inv.Arguments, inv.Key)
	}
	seen := ir.statuses(t, inv.ID)
	final := seen[len(seen)-1]
	if got := order(seen); !strings.HasPrefix(got, "pending,running") || final.Status != domain.InvocationSuccess {
		t.Errorf("statuses %s, want pending,running,...,success", got)
	}
	if string(final.Result) != `{"content":[{"type":"text","text":"echo"}]}` || final.EndedAt.IsZero() {
		t.Errorf("final result %s ended %v", final.Result, final.EndedAt)
	}
	stored, err := ir.svc.Get(context.Background(), ir.scope, inv.ID)
	if err != nil || stored.Status != domain.InvocationSuccess {
		t.Errorf("stored %s, %v; want success", stored.Status, err)
	}
	audit := ir.store.Audit()
	if len(audit) != 1 || audit[0].Outcome != domain.InvocationSuccess || audit[0].ArgsSHA256 != domain.ArgumentsHash(json.RawMessage(`{"message":"hi"}`)) {
		t.Errorf("audit %+v", audit)
	}
}

func TestInvocationProgressIsPublished(t *testing.T) {
	ir := newInvRig(t, nil)
	release := make(chan struct{})
	ir.sess.OnCall(func(ctx context.Context, tool string, args json.RawMessage, progress func(domain.Progress)) (json.RawMessage, error) {
		progress(domain.Progress{Progress: 1, Total: 4, Message: "step 1"})
		<-release
		return json.RawMessage(`{"content":[]}`), nil
	})
	inv, _ := ir.svc.Start(context.Background(), domain.CallRequest{Scope: ir.scope, Server: "srv", Tool: "slow"})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		batch, err := ir.feed.Next(ctx)
		if err != nil {
			t.Fatal("no progress was published")
		}
		last := batch[len(batch)-1]
		if last.ID == inv.ID && last.Progress != nil {
			if last.Progress.Message != "step 1" || last.Progress.Total != 4 || last.Status != domain.InvocationRunning {
				t.Errorf("progress %+v status %s", *last.Progress, last.Status)
			}
			break
		}
	}
	close(release)
	ir.statuses(t, inv.ID)
}

func TestInvocationOutcomes(t *testing.T) {
	tests := []struct {
		name   string
		answer func(ctx context.Context) (json.RawMessage, error)
		want   domain.InvocationStatus
		errHas string
	}{
		{"isError result is an error with its result", func(context.Context) (json.RawMessage, error) {
			return json.RawMessage(`{"isError":true,"content":[{"type":"text","text":"nope"}]}`), nil
		}, domain.InvocationError, ""},
		{"failed call", func(context.Context) (json.RawMessage, error) {
			return nil, errors.New("broken pipe token=sekret123")
		}, domain.InvocationError, "broken pipe"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ir := newInvRig(t, nil)
			ir.sess.OnCall(func(ctx context.Context, _ string, _ json.RawMessage, _ func(domain.Progress)) (json.RawMessage, error) {
				return tt.answer(ctx)
			})
			inv, _ := ir.svc.Start(context.Background(), domain.CallRequest{Scope: ir.scope, Server: "srv", Tool: "slow"})
			seen := ir.statuses(t, inv.ID)
			final := seen[len(seen)-1]
			if final.Status != tt.want || !strings.Contains(final.Error, tt.errHas) || strings.Contains(final.Error, "sekret123") {
				t.Errorf("final %s error %q; want %s containing %q, redacted", final.Status, final.Error, tt.want, tt.errHas)
			}
			if got := order(seen); !strings.HasPrefix(got, "pending,running") {
				t.Errorf("statuses %s skip running", got)
			}
		})
	}
}

func TestCancelRunningInvocation(t *testing.T) {
	ir := newInvRig(t, nil)
	started := make(chan struct{})
	ir.sess.OnCall(func(ctx context.Context, _ string, _ json.RawMessage, _ func(domain.Progress)) (json.RawMessage, error) {
		close(started)
		<-ctx.Done()
		return nil, ctx.Err()
	})
	inv, _ := ir.svc.Start(context.Background(), domain.CallRequest{Scope: ir.scope, Server: "srv", Tool: "slow"})
	<-started
	got, err := ir.svc.Cancel(context.Background(), ir.scope, inv.ID)
	if err != nil || got.Status != domain.InvocationCancelled || got.Error != "" {
		t.Fatalf("Cancel = %s %q, %v; want cancelled", got.Status, got.Error, err)
	}
	if other, err := ir.svc.Cancel(context.Background(), domain.Scope{User: "eve", Workspace: "/w"}, inv.ID); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("Cancel from another scope = %s, %v; want not found", other.Status, err)
	}
}

func TestInvocationRefusals(t *testing.T) {
	ir := newInvRig(t, schemaRejects{})
	for name, req := range map[string]domain.CallRequest{
		"bad arguments":  {Server: "srv", Tool: "echo", Arguments: json.RawMessage(`[1]`)},
		"unknown tool":   {Server: "srv", Tool: "nope"},
		"unknown server": {Server: "ghost", Tool: "echo"},
		"schema":         {Server: "srv", Tool: "echo", Arguments: json.RawMessage(`{}`)},
	} {
		req.Scope = ir.scope
		_, err := ir.svc.Start(context.Background(), req)
		var se *domain.SchemaError
		switch name {
		case "bad arguments":
			if !errors.Is(err, domain.ErrBadArguments) {
				t.Errorf("%s: %v", name, err)
			}
		case "unknown tool", "unknown server":
			if !errors.Is(err, domain.ErrNotFound) {
				t.Errorf("%s: %v, want not found", name, err)
			}
		case "schema":
			if !errors.As(err, &se) || se.Violations[0].Pointer != "/message" {
				t.Errorf("%s: %v, want a SchemaError at /message", name, err)
			}
		}
	}
}

type schemaRejects struct{}

func (schemaRejects) FillDefaults(schema, doc json.RawMessage) (json.RawMessage, []string, error) {
	return doc, nil, nil
}

func (schemaRejects) Validate(schema, doc json.RawMessage) error {
	if strings.Contains(string(doc), "message") {
		return nil
	}
	return &domain.SchemaError{Violations: []domain.Violation{{Pointer: "/message", Message: "missing"}}}
}

func TestRetryRunsTheSameArgumentsAgain(t *testing.T) {
	ir := newInvRig(t, nil)
	inv, _ := ir.svc.Start(context.Background(), domain.CallRequest{Scope: ir.scope, Server: "srv", Tool: "echo",
		Arguments: json.RawMessage(`{"message":"again"}`), Key: domain.CallKey{ConversationID: "conv"}})
	ir.statuses(t, inv.ID)
	again, err := ir.svc.Retry(context.Background(), ir.scope, inv.ID)
	if err != nil {
		t.Fatal(err)
	}
	if again.ID == inv.ID || again.RetryOf != inv.ID || string(again.Arguments) != string(inv.Arguments) || again.Key.ConversationID != "conv" {
		t.Errorf("retry %+v", again)
	}
	ir.statuses(t, again.ID)
	if _, err := ir.svc.Get(context.Background(), domain.Scope{User: "eve", Workspace: "/w"}, inv.ID); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("another tenant's lookup: %v, want not found", err)
	}
}

func TestArgumentsHashIsCanonical(t *testing.T) {
	a := domain.ArgumentsHash(json.RawMessage(`{"b":1,"a":[1,2]}`))
	b := domain.ArgumentsHash(json.RawMessage(`{ "a": [1, 2], "b": 1 }`))
	c := domain.ArgumentsHash(json.RawMessage(`{"a":[2,1],"b":1}`))
	if a != b || a == c || len(a) != 64 {
		t.Errorf("hashes %s %s %s: want key order and spacing ignored, array order kept", a, b, c)
	}
}

func TestInvocationMachine(t *testing.T) {
	tests := []struct {
		from, to domain.InvocationStatus
		ok       bool
	}{
		{domain.InvocationPending, domain.InvocationRunning, true},
		{domain.InvocationPending, domain.InvocationSuccess, false},
		{domain.InvocationRunning, domain.InvocationSuccess, true},
		{domain.InvocationRunning, domain.InvocationCancelled, true},
		{domain.InvocationSuccess, domain.InvocationRunning, false},
		{domain.InvocationCancelled, domain.InvocationError, false},
	}
	for _, tt := range tests {
		if got := tt.from.CanBecome(tt.to); got != tt.ok {
			t.Errorf("%s -> %s = %v, want %v", tt.from, tt.to, got, tt.ok)
		}
	}
}
