// Package jsonschema implements domain.SchemaValidator over
// santhosh-tekuri/jsonschema, a maintained validator that passes the
// official JSON Schema test suite. It validates tool arguments against a
// tool's inputSchema and results against its outputSchema, both of which
// come from MCP servers Switchboard does not control, so it never follows
// a $ref off the schema itself.
package jsonschema

import (
	"bytes"
	"container/list"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/switchboard-mcp/switchboard/domain"
)

// DefaultCacheSize is how many compiled schemas a Validator keeps: enough
// for every tool of a large fleet, small enough to bound the memory a
// stream of distinct schemas can take.
const DefaultCacheSize = 256

// ErrRemoteRef is the cause when a schema refers to a document other than
// itself; loading it would let a server make Switchboard fetch URLs or read
// files.
var ErrRemoteRef = errors.New("schema refers to an external document, which is not loaded")

// schemaURL is where every schema is registered for compiling. Relative
// $refs resolve against it (or the schema's own $id) to URLs the loader
// refuses; it is hierarchical so that they resolve at all, where an opaque
// URN would make "other.json" a reference to the schema itself.
const schemaURL = "mem:///switchboard/schema.json"

// Validator checks documents against JSON Schemas, compiling each distinct
// schema once. It is safe for concurrent use.
type Validator struct {
	size int

	mu    sync.Mutex // guards byKey and order
	byKey map[[sha256.Size]byte]*list.Element
	order *list.List // of *entry, most recently used first
}

// entry is one compiled schema in the cache.
type entry struct {
	key    [sha256.Size]byte
	schema *jsonschema.Schema
}

var _ domain.SchemaValidator = (*Validator)(nil)

// New returns a Validator that caches DefaultCacheSize schemas.
func New() *Validator {
	return &Validator{size: DefaultCacheSize, byKey: map[[sha256.Size]byte]*list.Element{}, order: list.New()}
}

// Validate returns nil when doc matches schema, a *domain.SchemaError
// listing every leaf violation when it does not, and any other error when
// schema or doc is not valid JSON or schema is not a valid schema.
// Schemas without $schema are read as draft 2020-12, the MCP default.
func (v *Validator) Validate(schema, doc json.RawMessage) error {
	compiled, err := v.compiled(schema)
	if err != nil {
		return err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return fmt.Errorf("parse document: %w", err)
	}
	err = compiled.Validate(inst)
	var verr *jsonschema.ValidationError
	if errors.As(err, &verr) {
		return schemaError(verr)
	}
	return err
}

// compiled returns the compiled form of schema from the cache, compiling
// and adding it on a miss. Two goroutines may compile the same schema at
// once; both results are equivalent, so the second simply wins.
func (v *Validator) compiled(schema json.RawMessage) (*jsonschema.Schema, error) {
	key := sha256.Sum256(schema)
	v.mu.Lock()
	if el, ok := v.byKey[key]; ok {
		v.order.MoveToFront(el)
		v.mu.Unlock()
		return el.Value.(*entry).schema, nil
	}
	v.mu.Unlock()

	compiled, err := compile(schema)
	if err != nil {
		return nil, err
	}

	v.mu.Lock()
	defer v.mu.Unlock()
	if el, ok := v.byKey[key]; ok {
		v.order.MoveToFront(el)
		return compiled, nil
	}
	v.byKey[key] = v.order.PushFront(&entry{key: key, schema: compiled})
	for v.order.Len() > v.size {
		oldest := v.order.Back()
		v.order.Remove(oldest)
		delete(v.byKey, oldest.Value.(*entry).key)
	}
	return compiled, nil
}

// compile compiles one schema with a compiler that can load nothing but
// the schema itself and the metaschemas the library embeds.
func compile(schema json.RawMessage) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return nil, fmt.Errorf("parse schema: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(refuseLoader{})
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, fmt.Errorf("add schema: %w", err)
	}
	compiled, err := c.Compile(schemaURL)
	var load *jsonschema.LoadURLError
	if errors.As(err, &load) {
		// LoadURLError does not unwrap to the loader's error.
		return nil, fmt.Errorf("compile schema: %w: %s", ErrRemoteRef, load.URL)
	}
	if err != nil {
		return nil, fmt.Errorf("compile schema: %w", err)
	}
	return compiled, nil
}

// refuseLoader is the compiler's URL loader: it loads nothing, replacing
// the library's default, which reads file:// URLs.
type refuseLoader struct{}

func (refuseLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("%w: %s", ErrRemoteRef, url)
}
