package jsonschema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// FillDefaults adds to doc every object property that is missing and whose
// schema gives a default, descending into the objects doc has (and into
// the defaults it adds) and following the schema's local $refs and allOf.
// Many TypeScript servers publish zod's output, which lists a property
// with a default under required although the server fills it itself; a
// call without it is what the server expects, so Switchboard fills it
// rather than refusing the call. The members doc has keep their order
// and their exact bytes; filled ones follow them, sorted by name, and
// numbers keep the digits the schema wrote. The pointers name each filled
// property; when nothing was filled doc is returned as it is. anyOf,
// oneOf and if/then/else are not followed: which branch applies is for
// the server to decide.
func (v *Validator) FillDefaults(schema, doc json.RawMessage) (json.RawMessage, []string, error) {
	compiled, err := v.compiled(schema)
	if err != nil {
		return nil, nil, err
	}
	out, filled, err := fillObject(doc, []*jsonschema.Schema{compiled}, "")
	if err != nil {
		return nil, nil, fmt.Errorf("parse document: %w", err)
	}
	if len(filled) == 0 {
		return doc, nil, nil
	}
	return out, filled, nil
}

// member is one name/value pair of an object, both as they were written.
type member struct {
	name  string
	key   []byte // the name as written, quotes and escapes included
	value json.RawMessage
}

// fillObject fills raw, when it is an object, from every schema in
// schemas (the ones that apply to it at ptr). It returns raw untouched
// when it is not an object or nothing was filled.
func fillObject(raw json.RawMessage, schemas []*jsonschema.Schema, ptr string) (json.RawMessage, []string, error) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return raw, nil, nil
	}
	props := propertySchemas(schemas)
	if len(props) == 0 {
		return raw, nil, nil
	}
	members, err := readMembers(trimmed)
	if err != nil {
		return nil, nil, err
	}
	var filled []string
	present := map[string]bool{}
	for i, m := range members {
		present[m.name] = true
		sub, ok := props[m.name]
		if !ok {
			continue
		}
		val, inner, err := fillObject(m.value, sub, ptr+"/"+escapeToken(m.name))
		if err != nil {
			return nil, nil, err
		}
		members[i].value = val
		filled = append(filled, inner...)
	}
	names := make([]string, 0, len(props))
	for name := range props {
		if !present[name] {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		def, ok := defaultOf(props[name])
		if !ok {
			continue
		}
		val, err := json.Marshal(def)
		if err != nil {
			return nil, nil, fmt.Errorf("default of %s: %w", name, err)
		}
		// A default object may itself lack members whose schemas have
		// defaults; the property as a whole is what came from defaults.
		p := ptr + "/" + escapeToken(name)
		if val, _, err = fillObject(val, props[name], p); err != nil {
			return nil, nil, err
		}
		key, _ := json.Marshal(name)
		members = append(members, member{name: name, key: key, value: val})
		filled = append(filled, p)
	}
	if len(filled) == 0 {
		return raw, nil, nil
	}
	return writeMembers(members), filled, nil
}

// readMembers reads an object's members in order, each name and value
// exactly as written, duplicates included.
func readMembers(obj []byte) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	dec.UseNumber()
	if _, err := dec.Token(); err != nil { // {
		return nil, err
	}
	var out []member
	for dec.More() {
		start := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		name, ok := tok.(string)
		if !ok {
			return nil, errors.New("object key is not a string")
		}
		// The decoder has read the key and whatever separated it from the
		// previous value; what remains after trimming is the key as written.
		key := bytes.TrimSpace(bytes.TrimLeft(obj[start:dec.InputOffset()], " \t\r\n,"))
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return nil, err
		}
		out = append(out, member{name: name, key: slices.Clone(key), value: val})
	}
	if _, err := dec.Token(); err != nil { // }
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the object")
	}
	return out, nil
}

func writeMembers(members []member) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range members {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(m.key)
		b.WriteByte(':')
		b.Write(m.value)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// propertySchemas collects, per property name, the schemas that apply to
// it: from each schema's properties, those of the schemas its $ref
// reaches and those of its allOf members.
func propertySchemas(schemas []*jsonschema.Schema) map[string][]*jsonschema.Schema {
	out := map[string][]*jsonschema.Schema{}
	for _, s := range applicable(schemas) {
		for name, p := range s.Properties {
			out[name] = append(out[name], p)
		}
	}
	return out
}

// defaultOf is the first default any of schemas (or what they refer to)
// gives.
func defaultOf(schemas []*jsonschema.Schema) (any, bool) {
	for _, s := range applicable(schemas) {
		if s.Default != nil {
			return *s.Default, true
		}
	}
	return nil, false
}

// applicable is schemas with every schema their $refs and allOf reach,
// each once, in the order they were reached: a schema's own keywords
// before those of what it refers to. A cycle of references ends where it
// meets a schema already seen.
func applicable(schemas []*jsonschema.Schema) []*jsonschema.Schema {
	var out []*jsonschema.Schema
	seen := map[*jsonschema.Schema]bool{}
	var visit func(*jsonschema.Schema)
	visit = func(s *jsonschema.Schema) {
		if s == nil || seen[s] {
			return
		}
		seen[s] = true
		out = append(out, s)
		visit(s.Ref)
		for _, a := range s.AllOf {
			visit(a)
		}
	}
	for _, s := range schemas {
		visit(s)
	}
	return out
}

// escapeToken escapes one JSON pointer token (RFC 6901).
func escapeToken(t string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(t)
}
