package domain

import (
	"encoding/json"
	"errors"
)

// Result is an MCP CallToolResult read once, so the call's outcome, its
// output check and every view agree on what the server sent.
type Result struct {
	Content           []json.RawMessage `json:"content"`
	StructuredContent json.RawMessage   `json:"structuredContent"`
	IsError           bool              `json:"isError"`
	Meta              json.RawMessage   `json:"_meta"`
}

// ParseResult reads a CallToolResult; JSON that is not one reads as an
// empty result, since a server's bad answer is shown, not refused. The
// fields are slices of raw rather than copies, so reading a result of many
// megabytes costs little more than a scan of it.
func ParseResult(raw json.RawMessage) Result {
	if !json.Valid(raw) {
		return Result{}
	}
	m := JSONMembers(raw)
	var r Result
	if c := m["content"]; c != nil {
		if elems := JSONElements(c); elems != nil {
			r.Content = make([]json.RawMessage, len(elems))
			for i, e := range elems {
				r.Content[i] = e
			}
		}
	}
	_ = json.Unmarshal(m["isError"], &r.IsError)
	r.StructuredContent, r.Meta = m["structuredContent"], m["_meta"]
	return r
}

// MaxOutputViolations is how many output schema violations an invocation
// keeps: as many as a card lists, plus one that says there were more.
const MaxOutputViolations = 50

// outputViolations checks a result's structuredContent against the tool's
// outputSchema, once, when the result arrives. A schema the validator
// cannot use is reported as one violation at the root, as the card did.
func outputViolations(v SchemaValidator, schema json.RawMessage, r Result) []Violation {
	if v == nil || len(schema) == 0 || isJSONNull(r.StructuredContent) {
		return nil
	}
	err := v.Validate(schema, r.StructuredContent)
	if err == nil {
		return nil
	}
	var se *SchemaError
	if !errors.As(err, &se) {
		return []Violation{{Message: err.Error()}}
	}
	if len(se.Violations) == 0 {
		return []Violation{{Message: se.Error()}}
	}
	return append([]Violation(nil), se.Violations[:min(len(se.Violations), MaxOutputViolations+1)]...)
}

func isJSONNull(raw json.RawMessage) bool {
	var v any
	return len(raw) == 0 || (json.Unmarshal(raw, &v) == nil && v == nil)
}
