package domain

// A person's answer to a waiting question, with the schema's defaults filled in.

import (
	"encoding/json"
	"fmt"
)

// Answer hands the person's answer to the waiting server. An accepted
// form's content takes the schema's defaults for every property it
// omits, exactly as the prefilled form would send them; it is otherwise
// passed on as given (the dashboard warns a person about content that
// breaks the schema; the server judges it). A URL-mode answer carries no
// content. A question that is gone (answered, or its call ended, even a
// moment ago) is ErrElicitationNotFound, and its server gets nothing.
func (s *Elicitations) Answer(scope Scope, id string, a ElicitationAnswer) error {
	switch a.Action {
	case ElicitAccept, ElicitDecline, ElicitCancel:
	default:
		return ErrBadElicitationAnswer
	}
	p, err := s.waiting(scope, id)
	if err != nil {
		return err
	}
	switch {
	case a.Action == ElicitAccept && p.e.Mode == ElicitForm:
		content, err := WithSchemaDefaults(p.e.RequestedSchema, a.Content)
		if err != nil {
			return err
		}
		a.Content = content
	default:
		a.Content = nil
	}
	// Taken and handed over under the lock, so that Ask, ending with its
	// call, either withdraws the question first or finds the answer.
	s.mu.Lock()
	if s.pending[id] != p {
		s.mu.Unlock()
		return fmt.Errorf("elicitation %s: %w", id, ErrElicitationNotFound)
	}
	delete(s.pending, id) // answered once: a second answer finds nothing
	p.answer <- a         // never blocks: only the one who deleted it sends
	s.mu.Unlock()
	s.changed()
	return nil
}

// waiting returns the pending question id of scope (or of no call).
func (s *Elicitations) waiting(scope Scope, id string) (*pendingElicitation, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.pending[id]
	if !ok || (p.e.Scope != scope && p.e.InvocationID != "") {
		return nil, fmt.Errorf("elicitation %s: %w", id, ErrElicitationNotFound)
	}
	return p, nil
}

// WithSchemaDefaults returns content with each top-level property the
// schema gives a default, and content lacks, set to that default. Empty
// content is {}. Content that is not a JSON object is ErrBadElicitationAnswer.
func WithSchemaDefaults(schema, content json.RawMessage) (json.RawMessage, error) {
	obj := map[string]json.RawMessage{}
	if len(content) > 0 && string(content) != "null" {
		if err := json.Unmarshal(content, &obj); err != nil || obj == nil {
			return nil, ErrBadElicitationAnswer
		}
	}
	var root struct {
		Properties map[string]struct {
			Default json.RawMessage `json:"default"`
		} `json:"properties"`
	}
	_ = json.Unmarshal(schema, &root) // a schema it cannot read adds nothing
	added := false
	for name, prop := range root.Properties {
		if _, has := obj[name]; !has && len(prop.Default) > 0 {
			obj[name], added = prop.Default, true
		}
	}
	if !added && len(content) > 0 && string(content) != "null" {
		return content, nil
	}
	return json.Marshal(obj)
}
