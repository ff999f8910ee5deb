package views

import (
	"bytes"
	"encoding/json"

	"github.com/switchboard-mcp/switchboard/domain"
)

// StructuredProps is a result's structuredContent, indented and coloured,
// with whether it conforms to the tool's outputSchema.
type StructuredProps struct {
	JSON    string // the indented text (View.Text)
	View    JSONViewProps
	Cut     bool   // a cap of the JSON view cut JSON
	RawURL  string // the whole result, downloaded
	Invalid bool
	// Violations say where and what, in the page's language (MsgText),
	// at most MaxViolations; ViolationsMore says there were more.
	Violations     []Message
	ViolationsMore bool
	// SchemaOK reports that the tool declares an outputSchema and the
	// result was checked against it and passed.
	SchemaOK bool
}

// NewStructuredProps shows structuredContent with the violations of the
// tool's outputSchema the domain found when the result arrived; checked
// says the tool declares an outputSchema, so no violation means a pass.
// Base64 that repeats one of content's images or audio, or any long
// base64, is collapsed to its size.
func NewStructuredProps(raw json.RawMessage, violations []domain.Violation, checked bool, content []json.RawMessage) *StructuredProps {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil
	}
	s := &StructuredProps{View: newJSONView(raw, JSONViewBytes, mediaData(content))}
	s.JSON, s.Cut = s.View.Text, s.View.Cut
	if len(violations) > 0 {
		s.Invalid = true
		for _, v := range violations[:min(len(violations), MaxViolations)] {
			s.Violations = append(s.Violations, ViolationAtMessage(v))
		}
		s.ViolationsMore = len(violations) > MaxViolations
	}
	s.SchemaOK = checked && !s.Invalid
	return s
}

// mediaData maps the base64 of each image, audio or blob item among the
// first MaxContentItems to the item's 1-based number.
func mediaData(content []json.RawMessage) map[string]int {
	out := map[string]int{}
	for i, raw := range content[:min(len(content), MaxContentItems)] {
		var c contentJSON
		if json.Unmarshal(raw, &c) != nil {
			continue
		}
		data := c.Data
		if c.Resource != nil && c.Resource.Blob != nil {
			data = *c.Resource.Blob
		}
		if len(data) >= 16 {
			if _, seen := out[data]; !seen {
				out[data] = i + 1
			}
		}
	}
	return out
}
