package mcpclient_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// CallTool returns the bytes the server sent (raw_transport.go), not
// mcp-go's parsed CallToolResult encoded again; the gateway may still
// build results from mcp-go's types. This pins what survives that trip,
// so an mcp-go upgrade that changes it shows up.
func TestCallToolResultRoundTrip(t *testing.T) {
	items := []string{
		`{"type":"text","text":"hi","annotations":{"audience":["user"],"priority":0.5,"lastModified":"2025-01-01T00:00:00Z"},"_meta":{"k":"v"}}`,
		`{"type":"image","data":"AAAA","mimeType":"image/png","annotations":{"audience":["assistant"]},"_meta":{"k":1}}`,
		`{"type":"audio","data":"AAAA","mimeType":"audio/wav","annotations":{"priority":1}}`,
		`{"type":"resource_link","uri":"demo://x","name":"x","title":"X","description":"d","mimeType":"text/plain","size":12,"annotations":{"audience":["user"]},"_meta":{"a":"b"}}`,
		`{"type":"resource","resource":{"uri":"demo://t","mimeType":"text/markdown","text":"# t","_meta":{"m":1}},"annotations":{"priority":0.1},"_meta":{"c":"d"}}`,
		`{"type":"resource","resource":{"uri":"demo://b","mimeType":"image/png","blob":"AAAA"}}`,
	}
	for _, item := range items {
		in := `{"content":[` + item + `],"structuredContent":{"n":12345678901234567890},"isError":true,"_meta":{"z":[1,2]}}`
		raw := json.RawMessage(in)
		res, err := mcp.ParseCallToolResult(&raw)
		if err != nil {
			t.Fatalf("parse %s: %v", in, err)
		}
		out, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		if !jsonEqual(t, []byte(in), out) {
			t.Errorf("round trip changed the result:\n got %s\nwant %s", out, in)
		}
	}
}

// Known losses of mcp-go v1.2.1, pinned so that a fix shows up: icons on a
// resource_link are dropped, its missing description and mimeType come
// back as "", unknown top-level result fields are dropped, and a content
// type it does not know fails the whole parse. CallTool avoids all of
// them by returning the server's bytes (TestRawResultsAreKeptAsSent).
func TestCallToolResultKnownLosses(t *testing.T) {
	raw := json.RawMessage(`{"content":[{"type":"resource_link","uri":"demo://x","name":"x","icons":[{"src":"https://x/i.png"}]}],"extension":1}`)
	res, err := mcp.ParseCallToolResult(&raw)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(res)
	if want := `{"content":[{"type":"resource_link","uri":"demo://x","name":"x","description":"","mimeType":""}]}`; !jsonEqual(t, out, []byte(want)) {
		t.Errorf("mcp-go's round trip changed: got %s, want %s", out, want)
	}
	raw = json.RawMessage(`{"content":[{"type":"hologram"}]}`)
	if _, err := mcp.ParseCallToolResult(&raw); err == nil {
		t.Error("mcp-go now accepts unknown content types: keep them in CallTool's result")
	}
}

func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatal(err)
	}
	return reflect.DeepEqual(x, y)
}
