package domain

import (
	"encoding/json"
	"testing"
)

// manyViolations refuses every document with n violations.
type manyViolations int

func (manyViolations) FillDefaults(schema, doc json.RawMessage) (json.RawMessage, []string, error) {
	return doc, nil, nil
}

func (n manyViolations) Validate(schema, doc json.RawMessage) error {
	vs := make([]Violation, int(n))
	for i := range vs {
		vs[i] = Violation{Pointer: "/x", Message: "bad"}
	}
	return &SchemaError{Violations: vs}
}

// An invocation keeps as many violations as a card lists and one more to
// say there were more, however many the validator found; a result with no
// structuredContent, or a tool with no outputSchema, is not checked.
func TestOutputViolationsAreCapped(t *testing.T) {
	schema := json.RawMessage(`{"type":"object"}`)
	r := ParseResult(json.RawMessage(`{"content":[],"structuredContent":{"x":1}}`))
	if got := outputViolations(manyViolations(500), schema, r); len(got) != MaxOutputViolations+1 {
		t.Errorf("kept %d violations, want %d", len(got), MaxOutputViolations+1)
	}
	if got := outputViolations(manyViolations(3), schema, r); len(got) != 3 {
		t.Errorf("kept %d violations, want 3", len(got))
	}
	if got := outputViolations(manyViolations(3), nil, r); got != nil {
		t.Errorf("no schema: got %v", got)
	}
	plain := ParseResult(json.RawMessage(`{"content":[],"structuredContent":null}`))
	if got := outputViolations(manyViolations(3), schema, plain); got != nil {
		t.Errorf("null structuredContent: got %v", got)
	}
}
