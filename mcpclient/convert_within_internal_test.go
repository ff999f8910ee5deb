package mcpclient

import (
	"bytes"
	"testing"
	"unsafe"

	"github.com/mark3labs/mcp-go/mcp"
)

// TestConvertToolSchemasShareRaw checks that a tool's schemas are the
// bytes of its Raw object rather than copies, and that appending to one
// cannot change Raw.
func TestConvertToolSchemasShareRaw(t *testing.T) {
	obj := []byte(`{"name":"echo","inputSchema":{"type":"object","properties":{"text":{"type":"string"}}},` +
		`"outputSchema":{"type":"object"}}`)
	dt, err := convertTool(mcp.Tool{Name: "echo"}, obj)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(dt.InputSchema), `{"type":"object","properties":{"text":{"type":"string"}}}`; got != want {
		t.Fatalf("input schema %s, want %s", got, want)
	}
	if got, want := string(dt.OutputSchema), `{"type":"object"}`; got != want {
		t.Fatalf("output schema %s, want %s", got, want)
	}
	inside := func(part []byte) bool {
		start := uintptr(unsafe.Pointer(unsafe.SliceData(dt.Raw)))
		p := uintptr(unsafe.Pointer(unsafe.SliceData(part)))
		return p >= start && p+uintptr(len(part)) <= start+uintptr(len(dt.Raw))
	}
	if !inside(dt.InputSchema) || !inside(dt.OutputSchema) {
		t.Error("a schema is a copy, not part of Raw")
	}
	before := bytes.Clone(dt.Raw)
	_ = append(dt.InputSchema, "xx"...)
	if !bytes.Equal(dt.Raw, before) {
		t.Errorf("appending to the input schema changed Raw to %s", dt.Raw)
	}
}

// TestWithinKeepsForeignPart checks that a part not found in obj comes
// back unchanged, and nil stays nil.
func TestWithinKeepsForeignPart(t *testing.T) {
	if got := within([]byte(`{"a":1}`), []byte(`{"b":2}`)); string(got) != `{"b":2}` {
		t.Errorf("got %s", got)
	}
	if got := within([]byte(`{"a":1}`), nil); got != nil {
		t.Errorf("got %q, want nil", got)
	}
}
