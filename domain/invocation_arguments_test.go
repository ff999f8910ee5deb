package domain_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
)

// zodLike stands in for a validator over a zod-style schema: "scale" is
// required and defaults to "css", and "thoughtNumber" must be a number.
type zodLike struct{}

func (zodLike) FillDefaults(schema, doc json.RawMessage) (json.RawMessage, []string, error) {
	if bytes.Contains(doc, []byte(`"scale"`)) {
		return doc, nil, nil
	}
	out := bytes.TrimSuffix(doc, []byte("}"))
	if len(out) > 1 {
		out = append(out, ',')
	}
	return append(out, `"scale":"css"}`...), []string{"/scale"}, nil
}

func (zodLike) Validate(schema, doc json.RawMessage) error {
	var se domain.SchemaError
	if !bytes.Contains(doc, []byte(`"scale"`)) {
		se.Violations = append(se.Violations, domain.Violation{Message: "missing property 'scale'"})
	}
	if bytes.Contains(doc, []byte(`"thoughtNumber":"`)) {
		se.Violations = append(se.Violations, domain.Violation{Pointer: "/thoughtNumber", Message: "got string, want number"})
	}
	if len(se.Violations) > 0 {
		return &se
	}
	return nil
}

// sentArgs makes the fake server answer every call and remember the
// arguments it received.
func (ir *invRig) sentArgs() chan json.RawMessage {
	got := make(chan json.RawMessage, 4)
	ir.sess.OnCall(func(ctx context.Context, tool string, args json.RawMessage, progress func(domain.Progress)) (json.RawMessage, error) {
		got <- args
		return json.RawMessage(`{"content":[]}`), nil
	})
	return got
}

func TestCallArgumentsAgainstTheSchema(t *testing.T) {
	tests := []struct {
		name         string
		req          domain.CallRequest
		wantSent     string
		wantDefaults []string
		wantMismatch []string // pointers
	}{
		{"missing-default-is-filled-and-marked", domain.CallRequest{Arguments: json.RawMessage(`{}`)},
			`{"scale":"css"}`, []string{"/scale"}, nil},
		{"typed-members-keep-their-order", domain.CallRequest{Arguments: json.RawMessage(`{"b":1,"a":2}`)},
			`{"b":1,"a":2,"scale":"css"}`, []string{"/scale"}, nil},
		{"given-value-is-not-a-default", domain.CallRequest{Arguments: json.RawMessage(`{"scale":"device"}`)},
			`{"scale":"device"}`, nil, nil},
		{"send-anyway-records-the-mismatch", domain.CallRequest{Arguments: json.RawMessage(`{"thoughtNumber":"2"}`), SkipValidation: true},
			`{"thoughtNumber":"2","scale":"css"}`, []string{"/scale"}, []string{"/thoughtNumber"}},
		{"forwarded-is-sent-as-it-came", domain.CallRequest{Arguments: json.RawMessage(`{"thoughtNumber":"2"}`), Forwarded: true},
			`{"thoughtNumber":"2"}`, nil, []string{"", "/thoughtNumber"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ir := newInvRig(t, zodLike{})
			sent := ir.sentArgs()
			req := tt.req
			req.Scope, req.Server, req.Tool = ir.scope, "srv", "echo"
			inv, err := ir.svc.Start(context.Background(), req)
			if err != nil {
				t.Fatalf("Start: %v", err)
			}
			if got := string(<-sent); got != tt.wantSent {
				t.Errorf("server got %s, want %s", got, tt.wantSent)
			}
			final := ir.statuses(t, inv.ID)
			stored := final[len(final)-1]
			if string(stored.Arguments) != tt.wantSent {
				t.Errorf("stored arguments %s, want what was sent: %s", stored.Arguments, tt.wantSent)
			}
			if !reflect.DeepEqual(stored.Defaults, tt.wantDefaults) {
				t.Errorf("defaults %q, want %q", stored.Defaults, tt.wantDefaults)
			}
			var mismatch []string
			for _, v := range stored.Mismatch {
				mismatch = append(mismatch, v.Pointer)
			}
			if !reflect.DeepEqual(mismatch, tt.wantMismatch) {
				t.Errorf("mismatch %q, want %q", mismatch, tt.wantMismatch)
			}
		})
	}
}

func TestRemainingViolationsRefuseTheCallAndNameEachOne(t *testing.T) {
	ir := newInvRig(t, zodLike{})
	_, err := ir.svc.Start(context.Background(), domain.CallRequest{Scope: ir.scope, Server: "srv", Tool: "echo",
		Arguments: json.RawMessage(`{"thoughtNumber":"2"}`)})
	var se *domain.SchemaError
	if !errors.As(err, &se) || len(se.Violations) != 1 || se.Violations[0].Pointer != "/thoughtNumber" {
		t.Fatalf("got %v, want a SchemaError at /thoughtNumber only (scale has a default)", err)
	}
	if invs, _ := ir.store.Invocations(context.Background(), ir.scope, domain.InvocationFilter{}); len(invs) != 0 {
		t.Errorf("a refused call was stored: %+v", invs)
	}
	two := &domain.SchemaError{Violations: []domain.Violation{{Message: "missing property 'scale'"}, {Pointer: "/n", Message: "want number"}}}
	if got, want := two.Error(), "does not match its schema at (root): missing property 'scale'; at /n: want number"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestRetryKeepsDefaultsAndSendAnyway(t *testing.T) {
	ir := newInvRig(t, zodLike{})
	sent := ir.sentArgs()
	inv, err := ir.svc.Start(context.Background(), domain.CallRequest{Scope: ir.scope, Server: "srv", Tool: "echo",
		Arguments: json.RawMessage(`{"thoughtNumber":"2"}`), SkipValidation: true})
	if err != nil {
		t.Fatal(err)
	}
	<-sent
	ir.statuses(t, inv.ID)
	again, err := ir.svc.Retry(context.Background(), ir.scope, inv.ID)
	if err != nil {
		t.Fatalf("Retry of a call sent anyway: %v", err)
	}
	if got := string(<-sent); got != `{"thoughtNumber":"2","scale":"css"}` {
		t.Errorf("retry sent %s", got)
	}
	if !reflect.DeepEqual(again.Defaults, []string{"/scale"}) || len(again.Mismatch) != 1 {
		t.Errorf("retry defaults %q mismatch %v; want /scale and the same mismatch", again.Defaults, again.Mismatch)
	}
	ir.statuses(t, again.ID)
}
