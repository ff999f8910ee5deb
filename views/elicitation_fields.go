package views

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// ElicitFields maps a requested schema to form fields, in the order the
// schema lists its properties, prefilled with the defaults (SEP-1034).
func ElicitFields(schema json.RawMessage, idPrefix string) []ElicitFieldProps {
	var root struct {
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	}
	if json.Unmarshal(schema, &root) != nil {
		return nil
	}
	names, props := orderedObject(root.Properties)
	required := map[string]bool{}
	for _, r := range root.Required {
		required[r] = true
	}
	var out []ElicitFieldProps
	for i, name := range names {
		if i >= MaxElicitFields {
			break
		}
		var sp elicitProp
		if json.Unmarshal(props[name], &sp) != nil {
			continue
		}
		f := ElicitFieldProps{ID: idPrefix + "-f" + strconv.Itoa(i), Name: ElicitFieldPrefix + name, Label: sp.Title,
			Description: sp.Description, Required: required[name], Pattern: sp.Pattern}
		if f.Label == "" {
			f.Label = name
		}
		def := jsonScalar(sp.Default)
		switch {
		case sp.Type == "array":
			f.Kind = ElicitChoices
			var chosen []string
			var defs []json.RawMessage
			if json.Unmarshal(sp.Default, &defs) == nil {
				for _, d := range defs {
					chosen = append(chosen, jsonScalar(d))
				}
			}
			if sp.Items != nil {
				f.Options = enumOptions(*sp.Items, chosen)
			}
		case len(sp.Enum) > 0 || len(sp.OneOf) > 0 || len(sp.AnyOf) > 0:
			f.Kind, f.Options = ElicitSelect, enumOptions(sp, []string{def})
		case sp.Type == "boolean":
			f.Kind, f.Checked = ElicitBool, def == "true"
		case sp.Type == "number" || sp.Type == "integer":
			f.Kind, f.Value, f.Step = ElicitNumber, def, "any"
			if sp.Type == "integer" {
				f.Step = "1"
			}
			f.Min, f.Max = sp.Minimum.String(), sp.Maximum.String()
		default:
			f.Kind, f.Value, f.Input = ElicitText, def, textInput(sp.Format)
			f.Min, f.Max = sp.MinLength.String(), sp.MaxLength.String()
		}
		out = append(out, f)
	}
	return out
}

// enumOptions lists the choices of sp: oneOf/anyOf const+title (SEP-1330),
// else enum with the legacy enumNames as titles.
func enumOptions(sp elicitProp, chosen []string) []ElicitOption {
	is := func(v string) bool {
		for _, c := range chosen {
			if c == v && c != "" {
				return true
			}
		}
		return false
	}
	var out []ElicitOption
	titled := sp.OneOf
	if len(titled) == 0 {
		titled = sp.AnyOf
	}
	for _, ct := range titled {
		v := jsonScalar(ct.Const)
		label := ct.Title
		if label == "" {
			label = v
		}
		out = append(out, ElicitOption{Value: v, Label: label, Selected: is(v), JSON: nonString(ct.Const)})
	}
	for i, raw := range sp.Enum {
		v := jsonScalar(raw)
		label := v
		if i < len(sp.EnumNames) && sp.EnumNames[i] != "" {
			label = sp.EnumNames[i]
		}
		out = append(out, ElicitOption{Value: v, Label: label, Selected: is(v), JSON: nonString(raw)})
	}
	return out
}

// nonString is raw when it is a JSON number or boolean, else empty.
func nonString(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] == '"' || raw[0] == '{' || raw[0] == '[' || raw[0] == 'n' {
		return ""
	}
	return string(raw)
}

// textInput is the <input type> for a string format.
func textInput(format string) string {
	switch format {
	case "email":
		return "email"
	case "uri":
		return "url"
	case "date":
		return "date"
	case "date-time":
		return "datetime-local"
	}
	return "text"
}

// jsonScalar is a JSON scalar as form text: a string unquoted, a number
// or boolean as written, anything else empty.
func jsonScalar(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	switch raw[0] {
	case '{', '[', 'n':
		return ""
	}
	return strings.TrimSpace(string(raw))
}
