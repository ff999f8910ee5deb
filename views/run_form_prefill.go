package views

import (
	"bytes"
	"encoding/json"

	"github.com/switchboard-mcp/switchboard/domain"
)

// RunValuesFromArgs turns a call's arguments back into what the run
// form's controls show, so Edit and re-run opens the form as it was sent.
// It reports false when some argument has no field of its own (the
// schema changed, or the call was sent as raw JSON): the form then opens
// on the Raw JSON tab, which holds every argument.
func RunValuesFromArgs(specs []RunFieldSpec, args json.RawMessage) (map[string]string, bool) {
	names, vals := orderedObject(args)
	out := map[string]string{}
	known := map[string]bool{}
	for _, s := range specs {
		known[s.Name] = true
		raw, ok := vals[s.Name]
		if !ok {
			continue
		}
		v, fits := runValue(s, raw)
		if !fits {
			return out, false
		}
		out[s.Name] = v
	}
	for _, n := range names {
		if !known[n] {
			return out, false
		}
	}
	return out, true
}

// runValue is the text one control shows for raw, and whether the
// control can hold it at all (a number field cannot hold a string).
func runValue(s RunFieldSpec, raw json.RawMessage) (string, bool) {
	raw = bytes.TrimSpace(raw)
	switch s.Kind {
	case RunText:
		var str string
		if json.Unmarshal(raw, &str) != nil {
			return "", false
		}
		return str, true
	case RunSwitch:
		var b bool
		if json.Unmarshal(raw, &b) != nil {
			return "", false
		}
		if b {
			return "true", true
		}
		return "", true
	case RunNumber, RunInteger:
		var n json.Number
		if json.Unmarshal(raw, &n) != nil {
			return "", false
		}
		return n.String(), true
	case RunRadio, RunSelect:
		v := compactJSON(raw)
		for _, e := range s.Enum {
			if e == v {
				return v, true
			}
		}
		return "", false
	}
	return string(domain.IndentJSON(raw, "")), true
}

// RunRawFromArgs is the Raw JSON tab's text for a call's arguments.
func RunRawFromArgs(args json.RawMessage) string {
	if len(bytes.TrimSpace(args)) == 0 {
		return "{}"
	}
	return string(domain.IndentJSON(args, ""))
}
