package jsonschema_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/jsonschema"
)

const searchSchema = `{
	"type": "object",
	"properties": {
		"query": {"type": "string"},
		"limit": {"type": "integer", "minimum": 1},
		"order": {"enum": ["asc", "desc"]},
		"filter": {
			"type": "object",
			"properties": {"tags": {"type": "array", "items": {"type": "string"}}}
		},
		"a/b~c": {"type": "boolean"}
	},
	"required": ["query"]
}`

func TestValidateReportsEveryViolation(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		doc  string
		want []string // pointers of the violations, in order
	}{
		{"valid-doc-passes", `{"query":"x","limit":3,"order":"asc","filter":{"tags":["a"]}}`, nil},
		{"required-missing", `{}`, []string{""}},
		{"wrong-type", `{"query":7}`, []string{"/query"}},
		{"enum", `{"query":"x","order":"up"}`, []string{"/order"}},
		{"minimum", `{"query":"x","limit":0}`, []string{"/limit"}},
		{"nested-array-item", `{"query":"x","filter":{"tags":["a",2]}}`, []string{"/filter/tags/1"}},
		{"pointer-escapes", `{"query":"x","a/b~c":1}`, []string{"/a~1b~0c"}},
		{"two-at-once", `{"query":1,"limit":"many"}`, []string{"/limit", "/query"}},
	}
	v := jsonschema.New()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := v.Validate(json.RawMessage(searchSchema), json.RawMessage(tt.doc))
			if tt.want == nil {
				if err != nil {
					t.Fatalf("got %v, want nil", err)
				}
				return
			}
			var se *domain.SchemaError
			if !errors.As(err, &se) {
				t.Fatalf("got %v, want a *domain.SchemaError", err)
			}
			var got []string
			for _, vi := range se.Violations {
				got = append(got, vi.Pointer)
				if vi.Message == "" {
					t.Errorf("violation at %q has no message", vi.Pointer)
				}
			}
			slices.Sort(got)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got pointers %q, want %q (%v)", got, tt.want, se.Violations)
			}
		})
	}
}

func TestValidateMessagesNameTheRule(t *testing.T) {
	t.Parallel()
	err := jsonschema.New().Validate(json.RawMessage(searchSchema), json.RawMessage(`{}`))
	var se *domain.SchemaError
	if !errors.As(err, &se) || len(se.Violations) != 1 {
		t.Fatalf("got %v, want one violation", err)
	}
	if msg := se.Violations[0].Message; !strings.Contains(msg, "query") {
		t.Errorf("got message %q, want it to name the missing property", msg)
	}
}

func TestValidateRefusesBadSchemas(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, schema string
		remote       bool
	}{
		{"not-json", `{"type":`, false},
		{"unknown-type", `{"type":"whole-number"}`, false},
		{"negative-minlength", `{"minLength":-1}`, false},
		{"remote-ref", `{"$ref":"https://example.com/schema.json"}`, true},
		{"file-ref", `{"$ref":"file:///etc/passwd"}`, true},
		{"relative-ref", `{"$ref":"other.json"}`, true},
		{"remote-metaschema", `{"$schema":"https://example.com/meta.json"}`, true},
	}
	v := jsonschema.New()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := v.Validate(json.RawMessage(tt.schema), json.RawMessage(`{}`))
			if err == nil {
				t.Fatal("got nil, want an error")
			}
			var se *domain.SchemaError
			if errors.As(err, &se) {
				t.Fatalf("got a SchemaError %v, want an invalid-schema error", err)
			}
			if got := errors.Is(err, jsonschema.ErrRemoteRef); got != tt.remote {
				t.Errorf("errors.Is(%v, ErrRemoteRef) = %v, want %v", err, got, tt.remote)
			}
		})
	}
}

func TestValidateResolvesLocalRefs(t *testing.T) {
	t.Parallel()
	schema := json.RawMessage(`{
		"$id": "https://example.com/tool.json",
		"$defs": {"id": {"type": "integer"}},
		"properties": {"id": {"$ref": "#/$defs/id"}, "other": {"$ref": "https://example.com/tool.json#/$defs/id"}}
	}`)
	v := jsonschema.New()
	if err := v.Validate(schema, json.RawMessage(`{"id":1,"other":2}`)); err != nil {
		t.Fatalf("got %v, want nil", err)
	}
	var se *domain.SchemaError
	if err := v.Validate(schema, json.RawMessage(`{"id":"x"}`)); !errors.As(err, &se) || se.Violations[0].Pointer != "/id" {
		t.Fatalf("got %v, want a violation at /id", err)
	}
}

func TestValidateDetectsTheDraft(t *testing.T) {
	t.Parallel()
	// Draft 4 reads exclusiveMaximum as a flag; 2020-12, the default, as
	// a bound. The same document passes one and fails the other.
	draft4 := `{"$schema":"http://json-schema.org/draft-04/schema#","maximum":5,"exclusiveMaximum":true}`
	v := jsonschema.New()
	if err := v.Validate(json.RawMessage(draft4), json.RawMessage(`5`)); err == nil {
		t.Error("draft 4: 5 passed an exclusive maximum of 5")
	}
	if err := v.Validate(json.RawMessage(`{"prefixItems":[{"type":"string"}]}`), json.RawMessage(`[1]`)); err == nil {
		t.Error("default draft: prefixItems ignored, want 2020-12 semantics")
	}
}

func TestValidateInvalidDocument(t *testing.T) {
	t.Parallel()
	err := jsonschema.New().Validate(json.RawMessage(`{}`), json.RawMessage(`{"a":`))
	var se *domain.SchemaError
	if err == nil || errors.As(err, &se) {
		t.Fatalf("got %v, want a parse error", err)
	}
}

// Many distinct schemas, more than the cache holds, validated from many
// goroutines: every answer stays right while entries are evicted.
func TestValidateConcurrentlyPastTheCache(t *testing.T) {
	t.Parallel()
	v := jsonschema.New()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range jsonschema.DefaultCacheSize / 2 {
				n := g*jsonschema.DefaultCacheSize/2 + i
				schema := json.RawMessage(fmt.Sprintf(`{"maximum":%d}`, n))
				if err := v.Validate(schema, json.RawMessage(fmt.Sprint(n))); err != nil {
					t.Errorf("%d against maximum %d: %v", n, n, err)
				}
				if err := v.Validate(schema, json.RawMessage(fmt.Sprint(n+1))); err == nil {
					t.Errorf("%d passed maximum %d", n+1, n)
				}
			}
		})
	}
	wg.Wait()
}
