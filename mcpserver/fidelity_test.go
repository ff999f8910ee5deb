package mcpserver_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
)

// richCaps lists a prompt, a resource and a template carrying what
// Switchboard's domain types do not model: _meta with a number a float
// would round, annotations and icons.
func richCaps() domain.Capabilities {
	return domain.Capabilities{
		Prompts:   []domain.Prompt{{Name: "greet", Raw: []byte(`{"name":"greet","arguments":[{"name":"who","required":true}],"icons":[{"src":"https://example.com/p.png"}],"_meta":{"n":12345678901234567890}}`)}},
		Resources: []domain.Resource{{URI: "mem://a", Name: "a", Raw: []byte(`{"uri":"mem://a","name":"a","annotations":{"priority":0.5,"audience":["user"]},"size":42,"_meta":{"r":12345678901234567890}}`)}},
		ResourceTemplates: []domain.ResourceTemplate{{URITemplate: "mem://items/{id}", Name: "item",
			Raw: []byte(`{"uriTemplate":"mem://items/{id}","name":"item","annotations":{"audience":["assistant"]},"_meta":{"t":true}}`)}},
	}
}

func TestListEntriesPassThroughAsListed(t *testing.T) {
	f := newFixture(t)
	f.connect(t, "alpha", richCaps())
	for _, path := range []string{"/mcp/alpha", "/mcp"} {
		c := f.dial(t, path, true)
		session := c.GetSessionId()
		for _, tc := range []struct{ method, want string }{
			{"prompts/list", `"icons":[{"src":"https://example.com/p.png"}]`},
			{"prompts/list", `"_meta":{"n":12345678901234567890}`},
			{"resources/list", `"annotations":{"audience":["user"],"priority":0.5}`},
			{"resources/list", `"size":42`},
			{"resources/list", `"_meta":{"r":12345678901234567890}`},
			{"resources/templates/list", `"annotations":{"audience":["assistant"]}`},
			{"resources/templates/list", `"_meta":{"t":true}`},
		} {
			got := string(rpc(t, f.srv.URL+path, session, `{"jsonrpc":"2.0","id":1,"method":"`+tc.method+`"}`))
			if !strings.Contains(got, tc.want) {
				t.Errorf("%s %s: got %s, want it to contain %s", path, tc.method, got, tc.want)
			}
		}
	}
}

func TestReadResultMetaPassesThrough(t *testing.T) {
	f := newFixture(t)
	f.connect(t, "alpha", richCaps()).OnRead(func(_ context.Context, uri string) (json.RawMessage, error) {
		text, _ := json.Marshal(uri)
		return json.RawMessage(`{"contents":[{"uri":` + string(text) + `,"text":"x","_meta":{"c":1}}],"_meta":{"big":12345678901234567890}}`), nil
	})
	for _, path := range []string{"/mcp/alpha", "/mcp"} {
		c := f.dial(t, path, true)
		for _, uri := range []string{"mem://a", "mem://items/7"} {
			got := string(rpc(t, f.srv.URL+path, c.GetSessionId(), `{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"`+uri+`","_meta":{"progressToken":"p"}}}`))
			for _, want := range []string{`"_meta":{"big":12345678901234567890}`, `"_meta":{"c":1}`} {
				if !strings.Contains(got, want) {
					t.Errorf("%s read %s: got %s, want it to contain %s", path, uri, got, want)
				}
			}
			if strings.Contains(got, "switchboard.readSlot") {
				t.Errorf("%s read %s: the internal slot leaked: %s", path, uri, got)
			}
		}
	}
}

// TestToolResultKeepsUnknownFields: a field mcp-go's CallToolResult does
// not model survives on the result, in a JSON answer and in an SSE one
// (progress makes mcp-go answer over SSE).
func TestToolResultKeepsUnknownFields(t *testing.T) {
	f := newFixture(t)
	f.connect(t, "alpha", echoCaps("alpha")).OnCall(func(_ context.Context, _ string, _ json.RawMessage, progress func(domain.Progress)) (json.RawMessage, error) {
		if progress != nil {
			progress(domain.Progress{Progress: 1, Total: 2})
		}
		return json.RawMessage(`{"content":[{"type":"text","text":"ok"}],"x-vendor":{"big":12345678901234567890},"isError":false}`), nil
	})
	for _, path := range []string{"/mcp/alpha", "/mcp"} {
		c := f.dial(t, path, true)
		name := "echo"
		if path == "/mcp" {
			name = "alpha__echo"
		}
		for _, meta := range []string{``, `,"_meta":{"progressToken":"p1"}`} {
			got := string(rpc(t, f.srv.URL+path, c.GetSessionId(), `{"jsonrpc":"2.0","id":"c1","method":"tools/call","params":{"name":"`+name+`","arguments":{}`+meta+`}}`))
			for _, want := range []string{`"x-vendor":{"big":12345678901234567890}`, `"text":"ok"`} {
				if !strings.Contains(got, want) {
					t.Errorf("%s call%s: got %s, want it to contain %s", path, meta, got, want)
				}
			}
		}
	}
}
