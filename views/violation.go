package views

import (
	"github.com/switchboard-mcp/switchboard/domain"
)

// ViolationMessage is a schema violation in words a page can translate:
// its message id and values, or, when the validator named no rule (or
// the violation was stored before it did), only that the value does not
// match the schema. The validator's English (v.Message) is never shown:
// in another language it would be English on the page.
func ViolationMessage(v domain.Violation) Message {
	if v.Key == "" {
		return Message{ID: "SchemaMismatch"}
	}
	return Message{ID: v.Key, Data: v.Data}
}

// ViolationAtMessage is ViolationMessage with where it happened, for
// lists that gather violations of a whole document; one about the whole
// document needs no place.
func ViolationAtMessage(v domain.Violation) Message {
	m := ViolationMessage(v)
	if v.Pointer == "" {
		return m
	}
	return Message{ID: "SchemaViolationAt", Data: map[string]any{"Path": v.Pointer, "Message": m}}
}
