package demoserver_test

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"image/png"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

func TestToolResultContentTypes(t *testing.T) {
	tests := []struct {
		tool  string
		args  map[string]any
		check func(t *testing.T, res *mcp.CallToolResult)
	}{
		{"markdown_report", nil, checkMarkdownReport},
		{"tiny_image", nil, checkTinyImage},
		{"short_tone", nil, checkShortTone},
		{"resource_links", nil, checkResourceLinks},
		{"embedded_text_resource", nil, checkEmbeddedText},
		{"embedded_blob_resource", nil, checkEmbeddedBlob},
		{"structured_weather", map[string]any{"city": "Porto"}, checkStructuredWeather},
		{"fail_always", nil, checkFailAlways},
	}
	c := newClient(t)
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			res := callTool(t, c, tt.tool, tt.args)
			if len(res.Content) == 0 {
				t.Fatalf("content: got none, want at least one item")
			}
			tt.check(t, res)
		})
	}
}

// onlyContent returns the single content item of res as T or fails.
func onlyContent[T any](t *testing.T, res *mcp.CallToolResult) T {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("content: got %d items, want 1", len(res.Content))
	}
	got, ok := res.Content[0].(T)
	if !ok {
		var want T
		t.Fatalf("content type: got %T, want %T", res.Content[0], want)
	}
	return got
}

// contentAt returns item i of res as T or fails.
func contentAt[T any](t *testing.T, res *mcp.CallToolResult, i int) T {
	t.Helper()
	if len(res.Content) <= i {
		t.Fatalf("content: got %d items, want more than %d", len(res.Content), i)
	}
	got, ok := res.Content[i].(T)
	if !ok {
		var want T
		t.Fatalf("content[%d] type: got %T, want %T", i, res.Content[i], want)
	}
	return got
}

func checkMarkdownReport(t *testing.T, res *mcp.CallToolResult) {
	text := onlyContent[mcp.TextContent](t, res)
	for _, want := range []string{"# Demo report", "\n- ", "```go", "](https://", "2026-11-30 09:30:00 UTC"} {
		if !strings.Contains(text.Text, want) {
			t.Errorf("markdown: got %q, want it to contain %q", text.Text, want)
		}
	}
	if text.Annotations == nil || len(text.Annotations.Audience) != 2 {
		t.Errorf("annotations: got %+v, want audience user and assistant", text.Annotations)
	}
}

func checkTinyImage(t *testing.T, res *mcp.CallToolResult) {
	contentAt[mcp.TextContent](t, res, 0)
	img := contentAt[mcp.ImageContent](t, res, 1)
	if got, want := img.MIMEType, "image/png"; got != want {
		t.Errorf("mimeType: got %q, want %q", got, want)
	}
	raw := decodeBase64(t, img.Data)
	decoded, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("png.Decode: %v", err)
	}
	if got, want := decoded.Bounds().Dx(), 16; got != want {
		t.Errorf("width: got %d, want %d", got, want)
	}
}

func checkShortTone(t *testing.T, res *mcp.CallToolResult) {
	contentAt[mcp.TextContent](t, res, 0)
	audio := contentAt[mcp.AudioContent](t, res, 1)
	if got, want := audio.MIMEType, "audio/wav"; got != want {
		t.Errorf("mimeType: got %q, want %q", got, want)
	}
	raw := decodeBase64(t, audio.Data)
	if len(raw) < 44 || string(raw[0:4]) != "RIFF" || string(raw[8:12]) != "WAVE" {
		t.Fatalf("wav header: got %q, want RIFF....WAVE", raw[:min(12, len(raw))])
	}
	if got, want := binary.LittleEndian.Uint32(raw[4:8]), uint32(len(raw)-8); got != want {
		t.Errorf("RIFF size: got %d, want %d", got, want)
	}
	if got, want := binary.LittleEndian.Uint32(raw[40:44]), uint32(len(raw)-44); got != want {
		t.Errorf("data size: got %d, want %d", got, want)
	}
}

func checkResourceLinks(t *testing.T, res *mcp.CallToolResult) {
	want := []string{"demo://readme", "demo://config.json", "demo://logo.png", "demo://tone.wav"}
	if len(res.Content) != len(want) {
		t.Fatalf("links: got %d, want %d", len(res.Content), len(want))
	}
	for i, uri := range want {
		link := contentAt[mcp.ResourceLink](t, res, i)
		if link.URI != uri {
			t.Errorf("link %d uri: got %q, want %q", i, link.URI, uri)
		}
		if link.Name == "" || link.MIMEType == "" || link.Description == "" {
			t.Errorf("link %s: got name %q mimeType %q description %q, want all set", uri, link.Name, link.MIMEType, link.Description)
		}
		if link.Size == nil || *link.Size <= 0 {
			t.Errorf("link %s size: got %v, want a positive size", uri, link.Size)
		}
	}
}

func checkEmbeddedText(t *testing.T, res *mcp.CallToolResult) {
	embedded := onlyContent[mcp.EmbeddedResource](t, res)
	text, ok := embedded.Resource.(mcp.TextResourceContents)
	if !ok {
		t.Fatalf("resource: got %T, want mcp.TextResourceContents", embedded.Resource)
	}
	if text.URI != "demo://readme" || text.MIMEType != "text/markdown" || !strings.HasPrefix(text.Text, "# ") {
		t.Errorf("resource: got uri %q mimeType %q text %q, want the Markdown readme", text.URI, text.MIMEType, text.Text)
	}
}

func checkEmbeddedBlob(t *testing.T, res *mcp.CallToolResult) {
	embedded := onlyContent[mcp.EmbeddedResource](t, res)
	blob, ok := embedded.Resource.(mcp.BlobResourceContents)
	if !ok {
		t.Fatalf("resource: got %T, want mcp.BlobResourceContents", embedded.Resource)
	}
	if got, want := blob.MIMEType, "image/png"; got != want {
		t.Errorf("mimeType: got %q, want %q", got, want)
	}
	if _, err := png.Decode(bytes.NewReader(decodeBase64(t, blob.Blob))); err != nil {
		t.Errorf("png.Decode: %v", err)
	}
}

func checkStructuredWeather(t *testing.T, res *mcp.CallToolResult) {
	text := onlyContent[mcp.TextContent](t, res)
	if !strings.Contains(text.Text, "Porto") {
		t.Errorf("fallback text: got %q, want it to name the city", text.Text)
	}
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatalf("marshal structured content: %v", err)
	}
	var got map[string]any
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatalf("structured content: got %s, want a JSON object: %v", raw, err)
	}
	want := map[string]any{"city": "Porto", "observedAt": "2026-11-30T09:30:00Z", "humidityPct": float64(64)}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("structured %s: got %v, want %v", k, got[k], v)
		}
	}
}

func checkFailAlways(t *testing.T, res *mcp.CallToolResult) {
	if !res.IsError {
		t.Errorf("isError: got false, want true")
	}
	text := onlyContent[mcp.TextContent](t, res)
	if !strings.Contains(text.Text, "on purpose") {
		t.Errorf("text: got %q, want an explanation", text.Text)
	}
}

// decodeBase64 decodes MCP's base64 binary payloads or fails.
func decodeBase64(t *testing.T, s string) []byte {
	t.Helper()
	raw, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		t.Fatalf("base64: %v", err)
	}
	return raw
}

func TestSimpleTools(t *testing.T) {
	tests := []struct {
		name        string
		tool        string
		args        map[string]any
		wantText    string
		wantIsError bool
	}{
		{"echo-returns-message", "echo", map[string]any{"message": "hi there"}, "hi there", false},
		{"echo-without-message-is-tool-error", "echo", nil, "message", true},
		{"add-integers", "add", map[string]any{"a": 2, "b": 3}, "5", false},
		{"add-fractions", "add", map[string]any{"a": 0.5, "b": 0.25}, "0.75", false},
		{"add-missing-b-is-tool-error", "add", map[string]any{"a": 1}, "b", true},
		{"fetch-describes-without-fetching", "fetch_url_stub", map[string]any{"url": "https://example.com/x"}, "Would fetch GET https://example.com/x", false},
		{"fetch-rejects-relative-url", "fetch_url_stub", map[string]any{"url": "/x"}, "not an absolute", true},
		{"long-task-rejects-zero-steps", "long_task", map[string]any{"steps": 0}, "steps must be", true},
		{"snapshot-fills-its-own-default", "snapshot_settings", nil, "scale css (the server's default), zoom 100%", false},
		{"snapshot-reads-what-was-sent", "snapshot_settings", map[string]any{"scale": "device", "zoom": 150}, "scale device (sent by the caller), zoom 150%", false},
		{"snapshot-coerces-a-string-zoom", "snapshot_settings", map[string]any{"zoom": "2"}, "zoom 2%", false},
		{"snapshot-rejects-an-unknown-scale", "snapshot_settings", map[string]any{"scale": "huge"}, "css or device", true},
	}
	c := newClient(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := callTool(t, c, tt.tool, tt.args)
			if res.IsError != tt.wantIsError {
				t.Errorf("isError: got %v, want %v", res.IsError, tt.wantIsError)
			}
			text := onlyContent[mcp.TextContent](t, res)
			if !strings.Contains(text.Text, tt.wantText) {
				t.Errorf("text: got %q, want it to contain %q", text.Text, tt.wantText)
			}
		})
	}
}

func TestDeleteNoteRemovesTheNoteResource(t *testing.T) {
	c := newClient(t)
	steps := []struct {
		name     string
		wantText string
	}{
		{"first-delete", `Deleted note "shopping"`},
		{"second-delete-is-a-no-op", `already gone`},
	}
	for _, step := range steps {
		res := callTool(t, c, "delete_note", map[string]any{"id": "shopping"})
		text := onlyContent[mcp.TextContent](t, res)
		if res.IsError || !strings.Contains(text.Text, step.wantText) {
			t.Errorf("%s: got isError %v text %q, want %q", step.name, res.IsError, text.Text, step.wantText)
		}
	}
	if _, err := readResource(t, c, "demo://notes/shopping"); err == nil {
		t.Errorf("read deleted note: got no error, want not found")
	}
}
