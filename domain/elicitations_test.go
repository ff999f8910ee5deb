package domain_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// waitElicitation waits until s lists one question for scope and returns it.
func waitElicitation(t *testing.T, s *domain.Elicitations, scope domain.Scope) domain.Elicitation {
	t.Helper()
	ch, stop := s.Subscribe()
	defer stop()
	deadline := time.After(10 * time.Second)
	for {
		if l := s.List(scope); len(l) > 0 {
			return l[0]
		}
		select {
		case <-ch:
		case <-deadline:
			t.Fatal("no elicitation was shown")
		}
	}
}

func TestWithSchemaDefaults(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{"a":{"type":"string","default":"x"},"b":{"type":"number"},"c":{"type":"boolean","default":true}}}`)
	tests := []struct{ name, content, want string }{
		{"empty-takes-all-defaults", ``, `{"a":"x","c":true}`},
		{"given-values-win", `{"a":"y","c":false}`, `{"a":"y","c":false}`},
		{"partial", `{"b":2}`, `{"a":"x","b":2,"c":true}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := domain.WithSchemaDefaults(schema, json.RawMessage(tt.content))
			if err != nil {
				t.Fatal(err)
			}
			var g, w any
			_ = json.Unmarshal(got, &g)
			_ = json.Unmarshal([]byte(tt.want), &w)
			gb, _ := json.Marshal(g)
			wb, _ := json.Marshal(w)
			if string(gb) != string(wb) {
				t.Errorf("got %s, want %s", gb, wb)
			}
		})
	}
	if _, err := domain.WithSchemaDefaults(schema, json.RawMessage(`[1]`)); !errors.Is(err, domain.ErrBadElicitationAnswer) {
		t.Errorf("array content: got %v, want ErrBadElicitationAnswer", err)
	}
}

func TestElicitationAnsweredOnceWithDefaults(t *testing.T) {
	s := domain.NewElicitations(domain.ElicitationsOptions{})
	scope := domain.Scope{User: "local", Workspace: "/w"}
	e, _ := domain.ParseElicitation("srv", json.RawMessage(`{"message":"sure?","requestedSchema":{"type":"object","properties":{"confirm":{"type":"boolean","default":true}}}}`))
	e.InvocationID, e.Scope = "inv1", scope
	type out struct {
		res json.RawMessage
		err error
	}
	done := make(chan out, 1)
	go func() {
		res, err := s.Ask(context.Background(), e, nil)
		done <- out{res, err}
	}()
	got := waitElicitation(t, s, scope)
	if got.Message != "sure?" || got.InvocationID != "inv1" || got.ID == "" || got.CreatedAt.IsZero() {
		t.Errorf("listed %+v", got)
	}
	if l := s.List(domain.Scope{User: "other"}); len(l) != 0 {
		t.Errorf("another scope sees %d questions; want none", len(l))
	}
	if _, ok := s.ForInvocation(scope, "inv1"); !ok {
		t.Errorf("ForInvocation found nothing")
	}
	if err := s.Answer(scope, got.ID, domain.ElicitationAnswer{Action: "maybe"}); !errors.Is(err, domain.ErrBadElicitationAnswer) {
		t.Errorf("bad action: got %v", err)
	}
	if err := s.Answer(scope, got.ID, domain.ElicitationAnswer{Action: domain.ElicitAccept}); err != nil {
		t.Fatal(err)
	}
	r := <-done
	if r.err != nil || string(r.res) != `{"action":"accept","content":{"confirm":true}}` {
		t.Errorf("server got %s, %v; want accept with the default", r.res, r.err)
	}
	if err := s.Answer(scope, got.ID, domain.ElicitationAnswer{Action: domain.ElicitDecline}); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("second answer: got %v, want not found", err)
	}
	if l := s.List(scope); len(l) != 0 {
		t.Errorf("still listed: %+v", l)
	}
}

func TestElicitationWithdrawnWhenTheCallEnds(t *testing.T) {
	s := domain.NewElicitations(domain.ElicitationsOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	errs := make(chan error, 1)
	go func() {
		_, err := s.Ask(ctx, domain.Elicitation{Server: "srv", Mode: domain.ElicitForm, Message: "m"}, nil)
		errs <- err
	}()
	got := waitElicitation(t, s, domain.Scope{})
	if len(s.ForServer("srv")) != 1 {
		t.Errorf("ForServer does not list the question of no call")
	}
	cancel()
	if err := <-errs; !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want the call's end", err)
	}
	if _, err := s.Get(domain.Scope{}, got.ID); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("withdrawn question still found: %v", err)
	}
}

// A call made in the dashboard has no Asker: its elicitation goes to the
// person, the card is republished while it waits, and the answer reaches
// the server.
func TestElicitationOfADashboardCallGoesToThePerson(t *testing.T) {
	ir := newInvRig(t, nil)
	people := domain.NewElicitations(domain.ElicitationsOptions{Clock: ir.clock})
	ir.svc = domain.NewInvocations(domain.InvocationsOptions{Caller: ir.fleet, Catalog: ir.fleet, Store: ir.store,
		Clock: ir.clock, Elicitations: people})
	t.Cleanup(func() { _ = ir.svc.Close(context.Background()) })
	askDuringCall(ir, domain.MethodElicit)
	inv, err := ir.svc.Start(context.Background(), domain.CallRequest{Scope: ir.scope, Server: "srv", Tool: "slow"})
	if err != nil {
		t.Fatal(err)
	}
	e := waitElicitation(t, people, ir.scope)
	if e.InvocationID != inv.ID || e.Message != "sure?" {
		t.Errorf("question %+v; want the call's", e)
	}
	if err := people.Answer(ir.scope, e.ID, domain.ElicitationAnswer{Action: domain.ElicitDecline}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	final, err := ir.svc.Await(ctx, ir.scope, inv.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(final.Result), `decline`) {
		t.Errorf("result %s; want the person's decline", final.Result)
	}
	if len(final.Asks) != 1 || final.Asks[0].Outcome != domain.AskAnsweredByPerson {
		t.Errorf("asks %+v; want one answered by the person", final.Asks)
	}
}

// A gateway client that lacks elicitation (its Asker says ErrNotAsked)
// leaves the question to the person.
func TestElicitationNotAskedByTheClientGoesToThePerson(t *testing.T) {
	ir := newInvRig(t, nil)
	people := domain.NewElicitations(domain.ElicitationsOptions{Clock: ir.clock})
	ir.svc = domain.NewInvocations(domain.InvocationsOptions{Caller: ir.fleet, Catalog: ir.fleet, Store: ir.store,
		Clock: ir.clock, Elicitations: people})
	t.Cleanup(func() { _ = ir.svc.Close(context.Background()) })
	askDuringCall(ir, domain.MethodElicit)
	client := askerFunc(func(context.Context, domain.ServerRequest) (json.RawMessage, error) {
		return nil, domain.ErrNotAsked
	})
	go func() {
		e := waitElicitation(t, people, ir.scope)
		_ = people.Answer(ir.scope, e.ID, domain.ElicitationAnswer{Action: domain.ElicitAccept, Content: json.RawMessage(`{"ok":true}`)})
	}()
	inv, err := ir.svc.Call(context.Background(), domain.CallRequest{Scope: ir.scope, Server: "srv", Tool: "slow", Asker: client})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(inv.Result), `\"ok\":true`) {
		t.Errorf("result %s; want the person's content", inv.Result)
	}
}

// A server cannot pile up questions for the person without end.
func TestElicitationsBoundedPerServer(t *testing.T) {
	s := domain.NewElicitations(domain.ElicitationsOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errs := make(chan error, 100)
	for range 20 {
		go func() {
			_, err := s.Ask(ctx, domain.Elicitation{Server: "srv", Mode: domain.ElicitForm}, nil)
			errs <- err
		}()
	}
	for range 4 {
		if err := <-errs; !errors.Is(err, domain.ErrTooManyElicitations) {
			t.Fatalf("got %v, want ErrTooManyElicitations", err)
		}
	}
	if n := len(s.ForServer("srv")); n != 16 {
		t.Errorf("%d questions waiting; want 16", n)
	}
	go func() {
		_, err := s.Ask(ctx, domain.Elicitation{Server: "other", Mode: domain.ElicitForm}, nil)
		errs <- err
	}()
	waitFor(t, s, func() bool { return len(s.ForServer("other")) == 1 })
	cancel()
	for range 17 {
		if err := <-errs; !errors.Is(err, context.Canceled) {
			t.Errorf("got %v, want the call's end", err)
		}
	}
}

// An answer to a question whose call has ended is refused as not found,
// and one refused for its content leaves nothing behind once the call
// ends.
func TestElicitationAnsweredAfterTheCallEnded(t *testing.T) {
	s := domain.NewElicitations(domain.ElicitationsOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	errs := make(chan error, 1)
	go func() {
		_, err := s.Ask(ctx, domain.Elicitation{Server: "srv", Mode: domain.ElicitForm,
			RequestedSchema: json.RawMessage(`{"type":"object"}`)}, nil)
		errs <- err
	}()
	got := waitElicitation(t, s, domain.Scope{})
	if err := s.Answer(domain.Scope{}, got.ID, domain.ElicitationAnswer{Action: domain.ElicitAccept, Content: json.RawMessage(`[1]`)}); !errors.Is(err, domain.ErrBadElicitationAnswer) {
		t.Fatalf("bad content: got %v", err)
	}
	if _, err := s.Get(domain.Scope{}, got.ID); err != nil {
		t.Fatalf("a refused answer closed the question: %v", err)
	}
	cancel()
	if err := <-errs; !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want the call's end", err)
	}
	if err := s.Answer(domain.Scope{}, got.ID, domain.ElicitationAnswer{Action: domain.ElicitAccept}); !errors.Is(err, domain.ErrElicitationNotFound) {
		t.Errorf("answer after the call ended: got %v, want not found", err)
	}
	if l := s.List(domain.Scope{}); len(l) != 0 {
		t.Errorf("left behind: %+v", l)
	}
}

// A URL-mode answer never carries content, whatever the API was sent.
func TestElicitationURLModeAnswerHasNoContent(t *testing.T) {
	s := domain.NewElicitations(domain.ElicitationsOptions{})
	e, err := domain.ParseElicitation("srv", json.RawMessage(`{"mode":"url","url":"https://example.com/x","elicitationId":"e1"}`))
	if err != nil {
		t.Fatal(err)
	}
	res := make(chan json.RawMessage, 1)
	go func() {
		r, _ := s.Ask(context.Background(), e, nil)
		res <- r
	}()
	got := waitElicitation(t, s, domain.Scope{})
	if err := s.Answer(domain.Scope{}, got.ID, domain.ElicitationAnswer{Action: domain.ElicitAccept, Content: json.RawMessage(`{"x":1}`)}); err != nil {
		t.Fatal(err)
	}
	if r := <-res; string(r) != `{"action":"accept"}` {
		t.Errorf("server got %s; want accept without content", r)
	}
}

// waitFor waits until ok holds, woken by s's changes.
func waitFor(t *testing.T, s *domain.Elicitations, ok func() bool) {
	t.Helper()
	ch, stop := s.Subscribe()
	defer stop()
	deadline := time.After(10 * time.Second)
	for !ok() {
		select {
		case <-ch:
		case <-deadline:
			t.Fatal("timed out")
		}
	}
}
