package domain

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// entry locates one server entry in the file's bytes, so errors can name a
// line and column and Remove can cut the entry out without reformatting
// anything else.
type entry struct {
	group      string // "mcpServers" or "servers"
	name       string
	keyStart   int64 // the opening quote of the name
	valueStart int64
	valueEnd   int64
	notObject  bool // the group's value is not an object; name is empty
}

var errUnexpectedEnd = errors.New("unexpected end of input")

// scanEntries walks the top-level object and returns every server entry in
// file order. data must already be valid JSON.
func scanEntries(data []byte) ([]entry, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil { // the opening brace
		return nil, wrapEOF(err)
	}
	var out []entry
	for dec.More() {
		keyTok, err := dec.Token()
		if err != nil {
			return nil, wrapEOF(err)
		}
		key, _ := keyTok.(string)
		valueStart := skipToValue(data, dec.InputOffset())
		if !isServerKey(key) {
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, wrapEOF(err)
			}
			continue
		}
		if valueStart >= int64(len(data)) || data[valueStart] != '{' {
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, wrapEOF(err)
			}
			out = append(out, entry{group: key, valueStart: valueStart, notObject: true})
			continue
		}
		if _, err := dec.Token(); err != nil {
			return nil, wrapEOF(err)
		}
		for dec.More() {
			keyStart := skipSpaceComma(data, dec.InputOffset())
			nameTok, err := dec.Token()
			if err != nil {
				return nil, wrapEOF(err)
			}
			name, _ := nameTok.(string)
			vs := skipToValue(data, dec.InputOffset())
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return nil, wrapEOF(err)
			}
			out = append(out, entry{group: key, name: name, keyStart: keyStart, valueStart: vs, valueEnd: dec.InputOffset()})
		}
		if _, err := dec.Token(); err != nil { // the closing brace of the group
			return nil, wrapEOF(err)
		}
	}
	return out, nil
}

func isServerKey(k string) bool {
	for _, s := range serverKeys {
		if k == s {
			return true
		}
	}
	return false
}

func wrapEOF(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return errUnexpectedEnd
	}
	return err
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

func skipSpaceComma(data []byte, i int64) int64 {
	for i < int64(len(data)) && (isSpace(data[i]) || data[i] == ',') {
		i++
	}
	return i
}

// skipToValue moves from just after a key past the colon to the value.
func skipToValue(data []byte, i int64) int64 {
	for i < int64(len(data)) && (isSpace(data[i]) || data[i] == ':') {
		i++
	}
	return i
}
