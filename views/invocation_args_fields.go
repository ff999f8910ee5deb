package views

import (
	"encoding/json"
	"sort"
	"strconv"

	"github.com/switchboard-mcp/switchboard/domain"
)

// argFields builds the card's read-only form view: one Run form control
// per argument sent, so an enum reads as its segmented
// control or select, a boolean as a switch, a number as a number box and
// an object or array as JSON, exactly as the person would have entered it.
// Fields follow the schema's order, then any arguments the schema does not
// list, keys sorted. The kind comes from the tool's schema when the value
// fits it, and from the value itself otherwise (an unknown tool, or a
// value the schema does not allow), so nothing sent is ever hidden. The
// second result reports whether MaxArgFields or ArgValueBytes cut the view.
func argFields(args json.RawMessage, schema []byte, idPrefix string) ([]RunFieldProps, bool) {
	names, vals := orderedObject(args)
	if len(names) == 0 {
		return nil, false
	}
	specs := map[string]RunFieldSpec{}
	var order []string
	for _, s := range RunFieldsFromSchema(schema) {
		specs[s.Name] = s
		if _, sent := vals[s.Name]; sent {
			order = append(order, s.Name)
		}
	}
	var extra []string
	for _, n := range names {
		if _, listed := specs[n]; !listed {
			extra = append(extra, n)
		}
	}
	sort.Strings(extra)
	order = append(order, extra...)
	cut := len(order) > MaxArgFields
	order = order[:min(len(order), MaxArgFields)]

	out := make([]RunFieldProps, 0, len(order))
	for i, name := range order {
		spec, value := argSpec(name, specs[name], vals[name])
		if len(value) > ArgValueBytes {
			value = cutUTF8(value, ArgValueBytes) + jsonEllipsis
			cut = true
		}
		f := newRunField(idPrefix+"-a"+strconv.Itoa(i), spec, value)
		f.ReadOnly = true
		// Each card's radios are their own group: a shared name would
		// let one card's checked option uncheck another's.
		f.InputName = f.ID
		if len(f.Name) > ArgValueBytes {
			f.Name = cutUTF8(f.Name, ArgValueBytes) + jsonEllipsis
			cut = true
		}
		out = append(out, f)
	}
	return out, cut
}

// argSpec settles one argument's control and the text it shows. A schema
// kind is kept only when the value fits it; an enum only when the value is
// one of its options.
func argSpec(name string, spec RunFieldSpec, raw json.RawMessage) (RunFieldSpec, string) {
	spec.Name = name
	kind := valueKind(raw)
	switch spec.Kind {
	case RunRadio, RunSelect:
		v := compactJSON(raw)
		for _, e := range spec.Enum {
			if e == v {
				return spec, v
			}
		}
		spec.Enum = nil
	case RunNumber, RunInteger:
		if kind == RunNumber {
			return spec, compactJSON(raw)
		}
	case RunText, RunSwitch:
		if kind == spec.Kind {
			return spec, argValue(kind, raw)
		}
	case RunJSON:
		return spec, argValue(RunJSON, raw)
	}
	// The schema does not describe this value: show it as what it is.
	spec.Kind, spec.Format, spec.Pattern, spec.Min, spec.Max, spec.Step = kind, "", "", "", "", ""
	if kind == RunNumber {
		spec.Step = "any"
	}
	return spec, argValue(kind, raw)
}

// valueKind is the control a JSON value reads best in.
func valueKind(raw json.RawMessage) RunFieldKind {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return RunJSON
	}
	switch v.(type) {
	case string:
		return RunText
	case bool:
		return RunSwitch
	case float64:
		return RunNumber
	}
	return RunJSON
}

// argValue is the text a control of kind shows for raw: a string without
// its quotes, "true" for a switch that is on, JSON indented by two spaces.
func argValue(kind RunFieldKind, raw json.RawMessage) string {
	switch kind {
	case RunText:
		var s string
		_ = json.Unmarshal(raw, &s)
		return s
	case RunSwitch:
		if compactJSON(raw) == "true" {
			return "true"
		}
		return ""
	case RunNumber:
		return compactJSON(raw)
	}
	// Indented when that fits the field's cap; otherwise compact, so the
	// cap cuts only what is too long as sent, not its indentation.
	compact := compactJSON(raw)
	if len(compact) <= ArgValueBytes {
		if indented := string(domain.IndentJSON([]byte(compact), "")); len(indented) <= ArgValueBytes {
			return indented
		}
	}
	return compact
}
