package domain

import (
	"bytes"
	"encoding/json"
)

// IndentJSON lays raw out for a person to read: two-space indentation,
// every line after the first starting with prefix. Text that is not JSON
// comes back as it was, because what is shown (a stored call, a server's
// default, a settings entry) is worth showing even when it cannot be
// indented. It is the one place the UI, the API and the command line
// indent JSON, so all of them lay it out the same way.
func IndentJSON(raw []byte, prefix string) []byte {
	var b bytes.Buffer
	if json.Indent(&b, raw, prefix, "  ") != nil {
		return raw
	}
	return b.Bytes()
}
