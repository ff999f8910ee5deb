package handlers

import (
	"bytes"
	"encoding/json"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

// runArgs builds a tool's arguments object from the run form's fields,
// each coerced to the type its schema declares, in schema order. An empty
// field is left out (a property with a default is filled in by the
// invocation service), and reported when the schema requires it and
// checkRequired is set. Errors are per property name, in the person's
// language; onlyMissing reports whether every one is a missing field.
func runArgs(specs []views.RunFieldSpec, form url.Values, checkRequired bool) (args json.RawMessage, errs map[string][]views.Message, onlyMissing bool) {
	errs = map[string][]views.Message{}
	onlyMissing = true
	var b bytes.Buffer
	b.WriteByte('{')
	n := 0
	for _, s := range specs {
		val, present, msg := runArg(s, form)
		if msg.ID != "" {
			errs[s.Name] = append(errs[s.Name], msg)
			onlyMissing = false
			continue
		}
		if !present {
			if s.Required && checkRequired {
				errs[s.Name] = append(errs[s.Name], views.Message{ID: "RunErrRequired"})
			}
			continue
		}
		if n > 0 {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(s.Name)
		b.Write(name)
		b.WriteByte(':')
		b.Write(val)
		n++
	}
	b.WriteByte('}')
	return b.Bytes(), errs, onlyMissing
}

// runArg coerces one field: its JSON value, whether the person gave one,
// or why what they gave does not fit.
func runArg(s views.RunFieldSpec, form url.Values) (json.RawMessage, bool, views.Message) {
	key := views.RunArgPrefix + s.Name
	v := form.Get(key)
	switch s.Kind {
	case views.RunSwitch:
		// An unchecked box sends nothing: it means false when false is
		// something the tool must hear (required, or against a default).
		if v == "true" {
			return json.RawMessage("true"), true, views.Message{}
		}
		if s.Required || s.HasDefault() {
			return json.RawMessage("false"), true, views.Message{}
		}
		return nil, false, views.Message{}
	case views.RunText:
		if v == "" {
			return nil, false, views.Message{}
		}
		b, _ := json.Marshal(v)
		return b, true, views.Message{}
	}
	v = strings.TrimSpace(v)
	if v == "" {
		return nil, false, views.Message{}
	}
	switch s.Kind {
	case views.RunInteger:
		i, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return nil, false, views.Message{ID: "RunErrInteger"}
		}
		return json.RawMessage(strconv.FormatInt(i, 10)), true, views.Message{}
	case views.RunNumber:
		var num json.Number
		if json.Unmarshal([]byte(v), &num) != nil || !json.Valid([]byte(v)) {
			return nil, false, views.Message{ID: "RunErrNumber"}
		}
		return json.RawMessage(num.String()), true, views.Message{}
	case views.RunRadio, views.RunSelect:
		if !slices.Contains(s.Enum, v) {
			return nil, false, views.Message{ID: "RunErrEnum"}
		}
		return json.RawMessage(v), true, views.Message{}
	default: // views.RunJSON
		var buf bytes.Buffer
		if json.Compact(&buf, []byte(v)) != nil {
			return nil, false, views.Message{ID: "RunErrJSON"}
		}
		// The value sits one level down, inside the arguments object.
		if limit := domain.MaxArgumentsDepth - 1; domain.CheckJSONDepth(buf.Bytes(), limit) != nil {
			return nil, false, views.Message{ID: "RunErrTooDeep", Data: map[string]any{"Max": limit}}
		}
		return buf.Bytes(), true, views.Message{}
	}
}

// runFormValues are the posted field texts per property name, for showing
// the form again as the person left it.
func runFormValues(specs []views.RunFieldSpec, form url.Values) map[string]string {
	out := make(map[string]string, len(specs))
	for _, s := range specs {
		if v := form.Get(views.RunArgPrefix + s.Name); v != "" {
			out[s.Name] = v
		}
	}
	return out
}

// rawArguments checks the raw editor's text: it must be one JSON object,
// nested no deeper than the arguments of any call may be.
func rawArguments(raw string) (json.RawMessage, bool) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return json.RawMessage("{}"), true
	}
	if domain.CheckJSONDepth([]byte(raw), domain.MaxArgumentsDepth) != nil {
		return nil, false
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(raw), &obj); err != nil || obj == nil {
		return nil, false
	}
	var buf bytes.Buffer
	if json.Compact(&buf, []byte(raw)) != nil {
		return nil, false
	}
	return buf.Bytes(), true
}
