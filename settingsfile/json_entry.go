package settingsfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/switchboard-mcp/switchboard/domain"
)

// SetEntry returns data with group.name set to entry, every other byte
// left as it was: a client's config file holds the person's own servers
// and settings, and often formatting they chose. A missing group is added
// at the end of the top-level object; empty data becomes a new document.
func SetEntry(data []byte, group, name string, entry json.RawMessage) ([]byte, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		data = []byte("{}\n")
	}
	if !json.Valid(data) {
		return nil, errors.New("the file is not valid JSON; fix or move it first")
	}
	root := bytes.IndexByte(data, '{')
	if root < 0 || bytes.TrimSpace(data)[0] != '{' {
		return nil, errors.New("the file's top level is not a JSON object")
	}
	rootEnd := root + len(rawValueAt(data, root))
	gs, ge, ok, err := findMember(data[root:rootEnd], group)
	if err != nil {
		return nil, err
	}
	if !ok {
		obj := domain.IndentJSON(json.RawMessage(`{`+quote(name)+`:`+string(entry)+`}`), "  ")
		return insertMember(data, root, rootEnd, group, obj, "  "), nil
	}
	gs, ge = gs+root, ge+root
	if data[gs] != '{' {
		return nil, fmt.Errorf("%q in the file is not an object", group)
	}
	es, ee, ok, err := findMember(data[gs:ge], name)
	if err != nil {
		return nil, err
	}
	value := domain.IndentJSON(entry, "    ")
	if ok {
		out := append([]byte{}, data[:gs+es]...)
		out = append(out, value...)
		return append(out, data[gs+ee:]...), nil
	}
	return insertMember(data, gs, ge, name, value, "    "), nil
}

// findMember returns where the value of key starts and ends inside obj,
// a JSON object, by its top-level members only.
func findMember(obj []byte, key string) (start, end int, ok bool, err error) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if _, err := dec.Token(); err != nil {
		return 0, 0, false, err
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return 0, 0, false, err
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return 0, 0, false, err
		}
		end := int(dec.InputOffset())
		if k, _ := tok.(string); k == key {
			return end - len(raw), end, true, nil
		}
	}
	return 0, 0, false, nil
}

// insertMember adds "key": value as the last member of the object at
// data[start:end], after a comma when the object has members.
func insertMember(data []byte, start, end int, key string, value []byte, indent string) []byte {
	closing := end - 1 // the object's '}'
	inner := bytes.TrimSpace(data[start+1 : closing])
	closeIndent := indent[:len(indent)-2]
	member := "\n" + indent + quote(key) + ": " + string(value)
	var out []byte
	if len(inner) == 0 {
		out = append(out, data[:start+1]...)
		out = append(out, member...)
		out = append(out, "\n"+closeIndent...)
		out = append(out, data[closing:]...)
		return out
	}
	last := start + 1 + bytes.LastIndex(data[start+1:closing], inner[len(inner)-1:]) + 1
	out = append(out, data[:last]...)
	out = append(out, ","+member...)
	out = append(out, data[last:]...)
	return out
}

// rawValueAt returns the JSON value starting at data[i].
func rawValueAt(data []byte, i int) json.RawMessage {
	var raw json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(data[i:]))
	if err := dec.Decode(&raw); err != nil && !errors.Is(err, io.EOF) {
		return nil
	}
	return raw
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return strings.TrimSpace(string(b))
}
