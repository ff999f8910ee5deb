package views

import (
	"bytes"
	"encoding/json"
	"strings"
)

// RunFieldKind is the control a schema property is edited with.
type RunFieldKind string

const (
	RunText    RunFieldKind = "text"    // string
	RunNumber  RunFieldKind = "number"  // number
	RunInteger RunFieldKind = "integer" // integer
	RunRadio   RunFieldKind = "radio"   // enum of at most MaxRadioOptions values: a segmented control
	RunSelect  RunFieldKind = "select"  // a longer enum
	RunSwitch  RunFieldKind = "switch"  // boolean
	RunJSON    RunFieldKind = "json"    // object, array or anything else: a JSON editor
)

// MaxRadioOptions is the largest enum shown as a segmented control; more
// options would not fit a drawer's width, so they become a select.
const MaxRadioOptions = 5

// RunFieldSpec is what the schema says about one top-level property of a
// tool's arguments. It is the contract between the form the person sees
// and the arguments the handler builds from what the form posts.
type RunFieldSpec struct {
	Name        string // the property name, untrusted
	Title       string // the schema's title; empty shows Name
	Kind        RunFieldKind
	Required    bool
	Description string
	Format      string // a string's format, shown as a hint
	Pattern     string // a string's pattern, shown as a hint
	Min, Max    string // number bounds as the schema wrote them; empty when absent
	Step        string // "1" for integers, multipleOf when given, else "any"
	// Enum holds each allowed value as JSON text, in schema order.
	Enum []string
	// Default is the default value as JSON text; empty when there is none.
	Default string
}

// HasDefault reports whether the schema gives the property a default.
func (f RunFieldSpec) HasDefault() bool { return f.Default != "" }

// schemaProp is the part of a property schema the form understands.
type schemaProp struct {
	Type        json.RawMessage   `json:"type"`
	Title       string            `json:"title"`
	Description string            `json:"description"`
	Format      string            `json:"format"`
	Pattern     string            `json:"pattern"`
	Enum        []json.RawMessage `json:"enum"`
	Default     json.RawMessage   `json:"default"`
	Minimum     json.Number       `json:"minimum"`
	Maximum     json.Number       `json:"maximum"`
	MultipleOf  json.Number       `json:"multipleOf"`
}

// RunFieldsFromSchema maps a tool's inputSchema to form fields, in the
// order the schema lists its properties. A missing or empty schema, or
// one that is not an object schema with properties, has no fields: the
// tool is called with {}. A property the form cannot edit precisely
// (objects, arrays, unions) gets a JSON editor rather than being dropped.
func RunFieldsFromSchema(schema []byte) []RunFieldSpec {
	var root struct {
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	}
	if len(bytes.TrimSpace(schema)) == 0 || json.Unmarshal(schema, &root) != nil {
		return nil
	}
	names, props := orderedObject(root.Properties)
	required := map[string]bool{}
	for _, r := range root.Required {
		required[r] = true
	}
	fields := make([]RunFieldSpec, 0, len(names))
	for _, name := range names {
		fields = append(fields, fieldSpec(name, props[name], required[name]))
	}
	return fields
}

// fieldSpec describes one property. A property with a default is never
// required of the person, whatever the schema's required list says: left
// empty, the invocation service fills the default in, as the server would.
func fieldSpec(name string, raw json.RawMessage, required bool) RunFieldSpec {
	f := RunFieldSpec{Name: name, Required: required, Kind: RunJSON}
	var p schemaProp
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if dec.Decode(&p) != nil {
		return f
	}
	f.Title, f.Description = strings.TrimSpace(p.Title), strings.TrimSpace(p.Description)
	if len(p.Default) > 0 {
		f.Default = compactJSON(p.Default)
		f.Required = false
	}
	if len(p.Enum) > 0 {
		for _, e := range p.Enum {
			f.Enum = append(f.Enum, compactJSON(e))
		}
		f.Kind = RunSelect
		if len(f.Enum) <= MaxRadioOptions {
			f.Kind = RunRadio
		}
		return f
	}
	switch schemaType(p.Type) {
	case "string":
		f.Kind, f.Format, f.Pattern = RunText, p.Format, p.Pattern
	case "boolean":
		f.Kind = RunSwitch
	case "integer":
		f.Kind, f.Min, f.Max, f.Step = RunInteger, p.Minimum.String(), p.Maximum.String(), "1"
		if p.MultipleOf != "" {
			f.Step = p.MultipleOf.String()
		}
	case "number":
		f.Kind, f.Min, f.Max, f.Step = RunNumber, p.Minimum.String(), p.Maximum.String(), "any"
		if p.MultipleOf != "" {
			f.Step = p.MultipleOf.String()
		}
	}
	return f
}

// schemaType returns a property's single type; a nullable type
// (["string", "null"]) counts as its non-null part, and any other union
// as no type at all.
func schemaType(raw json.RawMessage) string {
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return one
	}
	var many []string
	if json.Unmarshal(raw, &many) != nil {
		return ""
	}
	var out []string
	for _, t := range many {
		if t != "null" {
			out = append(out, t)
		}
	}
	if len(out) == 1 {
		return out[0]
	}
	return ""
}

// orderedObject returns the keys of a JSON object in document order with
// their raw values; encoding/json's maps would lose the order the schema's
// author chose for the form.
func orderedObject(raw json.RawMessage) ([]string, map[string]json.RawMessage) {
	vals := map[string]json.RawMessage{}
	if json.Unmarshal(raw, &vals) != nil || len(vals) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil { // {
		return nil, nil
	}
	var names []string
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil
		}
		key, _ := tok.(string)
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, nil
		}
		if !seen[key] {
			seen[key] = true
			names = append(names, key)
		}
	}
	return names, vals
}

func compactJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

// EnumLabel is how an enum value reads in the form: a string as itself,
// anything else as its JSON text.
func EnumLabel(value string) string {
	var s string
	if json.Unmarshal([]byte(value), &s) == nil {
		return s
	}
	return value
}
