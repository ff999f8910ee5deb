package mcpclient_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/mcpclient"
)

// callResult is the part of a CallToolResult the tests look at, decoded
// from the JSON CallTool returns.
type callResult struct {
	Content           []map[string]any `json:"content"`
	StructuredContent map[string]any   `json:"structuredContent"`
	IsError           bool             `json:"isError"`
}

func call(t *testing.T, s domain.Session, tool, args string, progress func(domain.Progress)) callResult {
	t.Helper()
	raw, err := s.CallTool(connectCtx(t), tool, json.RawMessage(args), progress)
	if err != nil {
		t.Fatalf("CallTool(%s): %v", tool, err)
	}
	var r callResult
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatalf("CallTool(%s) returned %s: %v", tool, raw, err)
	}
	return r
}

// types lists the content types of r in order.
func (r callResult) types() []string {
	var out []string
	for _, c := range r.Content {
		s, _ := c["type"].(string)
		out = append(out, s)
	}
	return out
}

// demoSessions connects to the demo server over stdio and streamable HTTP.
func demoSessions(t *testing.T) map[string]domain.Session {
	t.Helper()
	_, url := startDemoRemote(t, "http", "127.0.0.1:0")
	c := mcpclient.New(mcpclient.Options{})
	return map[string]domain.Session{
		"stdio": connect(t, c, demoStdio(), nil),
		"http":  connect(t, c, remote(domain.TransportHTTP, url), nil),
	}
}

func TestCallToolReturnsEveryContentType(t *testing.T) {
	t.Parallel()
	tests := []struct {
		tool, args string
		check      func(t *testing.T, r callResult)
	}{
		{"echo", `{"message":"hello there"}`, func(t *testing.T, r callResult) {
			if len(r.Content) != 1 || r.Content[0]["type"] != "text" ||
				!strings.Contains(r.Content[0]["text"].(string), "hello there") {
				t.Errorf("content = %v, want one text echoing the message", r.Content)
			}
		}},
		{"tiny_image", ``, func(t *testing.T, r callResult) {
			img := find(t, r, "image")
			if img["mimeType"] != "image/png" || img["data"] == "" {
				t.Errorf("image = %v, want PNG data", img)
			}
		}},
		{"short_tone", `null`, func(t *testing.T, r callResult) {
			audio := find(t, r, "audio")
			if audio["mimeType"] != "audio/wav" || audio["data"] == "" {
				t.Errorf("audio = %v, want WAV data", audio)
			}
		}},
		{"resource_links", `{}`, func(t *testing.T, r callResult) {
			link := find(t, r, "resource_link")
			if uri, _ := link["uri"].(string); !strings.HasPrefix(uri, "demo://") || link["name"] == "" {
				t.Errorf("resource_link = %v, want a demo:// uri and a name", link)
			}
		}},
		{"embedded_text_resource", `{}`, func(t *testing.T, r callResult) {
			res, _ := find(t, r, "resource")["resource"].(map[string]any)
			if res["uri"] != "demo://readme" || res["mimeType"] != "text/markdown" || res["text"] == nil {
				t.Errorf("resource = %v, want demo://readme as Markdown text", res)
			}
		}},
		{"embedded_blob_resource", `{}`, func(t *testing.T, r callResult) {
			res, _ := find(t, r, "resource")["resource"].(map[string]any)
			if res["uri"] != "demo://logo.png" || res["blob"] == nil || res["text"] != nil {
				t.Errorf("resource = %v, want demo://logo.png as a blob", res)
			}
		}},
		{"structured_weather", `{"city":"Porto"}`, func(t *testing.T, r callResult) {
			if r.StructuredContent == nil || !strings.Contains(jsonString(t, r.StructuredContent), "Porto") {
				t.Errorf("structuredContent = %v, want an observation for Porto", r.StructuredContent)
			}
			find(t, r, "text")
		}},
		{"markdown_report", `{}`, func(t *testing.T, r callResult) {
			ann, _ := find(t, r, "text")["annotations"].(map[string]any)
			if ann["priority"] != 0.8 || len(ann["audience"].([]any)) != 2 {
				t.Errorf("annotations = %v, want priority 0.8 and two audiences", ann)
			}
		}},
		{"fail_always", `{}`, func(t *testing.T, r callResult) {
			if !r.IsError {
				t.Errorf("isError = false, want true")
			}
			find(t, r, "text")
		}},
	}
	for transport, s := range demoSessions(t) {
		t.Run(transport, func(t *testing.T) {
			t.Parallel()
			for _, tt := range tests {
				t.Run(tt.tool, func(t *testing.T) {
					r := call(t, s, tt.tool, tt.args, nil)
					tt.check(t, r)
					if tt.tool != "fail_always" && r.IsError {
						t.Errorf("isError = true, want false: %v", r.Content)
					}
				})
			}
		})
	}
}

// find returns the first content item of type typ.
func find(t *testing.T, r callResult, typ string) map[string]any {
	t.Helper()
	for _, c := range r.Content {
		if c["type"] == typ {
			return c
		}
	}
	t.Fatalf("content types %v, want one of type %q", r.types(), typ)
	return nil
}

func jsonString(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestCallToolCancelledByContext(t *testing.T) {
	t.Parallel()
	for transport, s := range demoSessions(t) {
		t.Run(transport, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithCancel(connectCtx(t))
			defer cancel()
			// 100 steps of 200 ms take 20 s; the first progress cancels the
			// call. mcp-go may drop progress over HTTP, so a timer a second
			// in cancels too: either way the cancel lands mid-call.
			fallback := time.AfterFunc(time.Second, cancel)
			defer fallback.Stop()
			_, err := s.CallTool(ctx, "long_task", json.RawMessage(`{"steps":100,"stepMillis":200}`),
				func(domain.Progress) { cancel() })
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("CallTool error = %v, want context.Canceled", err)
			}
			if ctx.Err() == nil {
				t.Fatal("CallTool returned before its context ended")
			}
			// The session survives a cancelled call.
			call(t, s, "echo", `{"message":"still here"}`, nil)
		})
	}
}

func TestCallToolArgumentErrors(t *testing.T) {
	t.Parallel()
	s := connect(t, mcpclient.New(mcpclient.Options{}), demoStdio(), nil)
	for _, args := range []string{`[1]`, `"x"`, `3`, `{"a":1} {}`, `{`} {
		_, err := s.CallTool(connectCtx(t), "echo", json.RawMessage(args), nil)
		if !errors.Is(err, mcpclient.ErrArgsNotObject) {
			t.Errorf("CallTool(%s) error = %v, want ErrArgsNotObject", args, err)
		}
	}
	select {
	case <-s.Done():
		t.Fatalf("bad arguments ended the session: %v", s.Err())
	default:
	}
	// An unknown tool is the server's to refuse, as an error for this call only.
	_, err := s.CallTool(connectCtx(t), "no_such_tool", nil, nil)
	if err == nil {
		t.Fatal("CallTool(no_such_tool) succeeded, want an error")
	}
}

func TestDecodeArgs(t *testing.T) {
	tests := []struct {
		in   string
		want map[string]any
	}{
		{``, map[string]any{}},
		{`  `, map[string]any{}},
		{`null`, map[string]any{}},
		{` {} `, map[string]any{}},
		{`{"n":12345678901234567890,"s":"x"}`, map[string]any{"n": json.Number("12345678901234567890"), "s": "x"}},
	}
	for _, tt := range tests {
		got, err := mcpclient.DecodeArgs(json.RawMessage(tt.in))
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("DecodeArgs(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

func TestReadResource(t *testing.T) {
	t.Parallel()
	for transport, s := range demoSessions(t) {
		t.Run(transport, func(t *testing.T) {
			t.Parallel()
			raw, err := s.ReadResource(connectCtx(t), "demo://readme")
			if err != nil {
				t.Fatalf("ReadResource: %v", err)
			}
			var r struct {
				Contents []struct{ URI, MIMEType, Text string } `json:"contents"`
			}
			if err := json.Unmarshal(raw, &r); err != nil {
				t.Fatalf("ReadResource returned %s: %v", raw, err)
			}
			if len(r.Contents) != 1 || r.Contents[0].URI != "demo://readme" || !strings.HasPrefix(r.Contents[0].Text, "#") {
				t.Errorf("contents = %+v, want demo://readme as Markdown", r.Contents)
			}
			if _, err := s.ReadResource(connectCtx(t), "demo://nope"); err == nil {
				t.Error("ReadResource(demo://nope) succeeded, want an error")
			}
		})
	}
}
