package domain

import (
	"encoding/json"
	"regexp"
	"slices"
)

// maxElicitPatternBytes bounds the schema pattern an answer is checked
// against; a longer one is not checked at all.
const maxElicitPatternBytes = 1 << 10

// ElicitPatternMismatches names, sorted, the top-level properties of
// content whose string value does not match the pattern the requested
// schema gives them. A server's pattern never reaches the browser, where
// a hostile one could stall the tab with backtracking: it is checked
// here, with Go's regexp, which runs in time linear in the value. A
// pattern Go cannot compile (JSON Schema's are ECMA-262), or one longer
// than maxElicitPatternBytes, is skipped; so is anything but a string.
// A mismatch is a warning for the person, who may send the answer anyway.
func ElicitPatternMismatches(schema, content json.RawMessage) []string {
	var root struct {
		Properties map[string]struct {
			Pattern string `json:"pattern"`
		} `json:"properties"`
	}
	var values map[string]json.RawMessage
	if json.Unmarshal(schema, &root) != nil || json.Unmarshal(content, &values) != nil {
		return nil
	}
	var out []string
	for name, prop := range root.Properties {
		if prop.Pattern == "" || len(prop.Pattern) > maxElicitPatternBytes {
			continue
		}
		var value string
		if raw, ok := values[name]; !ok || json.Unmarshal(raw, &value) != nil {
			continue
		}
		re, err := regexp.Compile(prop.Pattern)
		if err != nil {
			continue
		}
		if !re.MatchString(value) {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}
