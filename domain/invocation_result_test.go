package domain_test

import (
	"context"
	"encoding/json"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
)

// countingValidator refuses every document with two violations and counts
// the checks, so a test can see a result is validated exactly once.
type countingValidator struct{ calls atomic.Int32 }

func (v *countingValidator) FillDefaults(schema, doc json.RawMessage) (json.RawMessage, []string, error) {
	return doc, nil, nil
}

func (v *countingValidator) Validate(schema, doc json.RawMessage) error {
	v.calls.Add(1)
	return &domain.SchemaError{Violations: []domain.Violation{
		{Pointer: "/temperature", Message: "want number"}, {Pointer: "", Message: "missing property 'unit'"}}}
}

// A result that breaks its tool's outputSchema is validated once, when it
// arrives, and stored with its violations for every view to show.
func TestResultViolatingOutputSchemaIsStoredWithViolations(t *testing.T) {
	r := newRig(t, nil)
	cfg := server("srv")
	cfg.CallTimeout = time.Minute
	r.attach(cfg)
	sess := domaintest.NewSession(domain.Capabilities{Tools: []domain.Tool{
		{Name: "weather", OutputSchema: []byte(`{"type":"object","required":["unit"]}`)}}})
	r.conn.Next(t).Succeed(sess)
	r.waitPhase("srv", domain.PhaseConnected)
	sess.OnCall(func(ctx context.Context, tool string, args json.RawMessage, progress func(domain.Progress)) (json.RawMessage, error) {
		return json.RawMessage(`{"content":[],"structuredContent":{"temperature":"hot"}}`), nil
	})
	v := &countingValidator{}
	store := domaintest.NewInvocationStore()
	svc := domain.NewInvocations(domain.InvocationsOptions{Caller: r.fleet, Catalog: r.fleet, Store: store,
		Validator: v, Clock: r.clock})
	t.Cleanup(func() { _ = svc.Close(context.Background()) })
	scope := domain.Scope{User: "local", Workspace: "/w"}

	inv, err := svc.Call(context.Background(), domain.CallRequest{Scope: scope, Server: "srv", Tool: "weather",
		Arguments: json.RawMessage(`{}`)})
	if err != nil {
		t.Fatal(err)
	}
	stored, err := store.Invocation(context.Background(), scope, inv.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := []domain.Violation{{Pointer: "/temperature", Message: "want number"}, {Pointer: "", Message: "missing property 'unit'"}}
	for name, got := range map[string]domain.Invocation{"returned": inv, "stored": stored} {
		if got.Status != domain.InvocationSuccess || !reflect.DeepEqual(got.OutputViolations, want) {
			t.Errorf("%s: status %s violations %+v, want success with %+v", name, got.Status, got.OutputViolations, want)
		}
	}
	if n := v.calls.Load(); n != 1 {
		t.Errorf("validator called %d times, want once", n)
	}
}
