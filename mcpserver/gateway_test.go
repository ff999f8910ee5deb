package mcpserver_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
)

func TestAggregatedBothEras(t *testing.T) {
	f := newFixture(t)
	f.connect(t, "alpha", echoCaps("alpha")).OnCall(echoing("alpha"))
	f.connect(t, "beta", echoCaps("beta")).OnCall(echoing("beta"))
	for _, era := range []struct {
		name   string
		legacy bool
	}{{"legacy-initialize-session", true}, {"2026-07-28", false}} {
		t.Run(era.name, func(t *testing.T) {
			c := f.dial(t, "/mcp", era.legacy)
			if got, want := c.ProtocolVersion() == "2026-07-28", !era.legacy; got != want {
				t.Fatalf("protocol %q: modern %v, want %v", c.ProtocolVersion(), got, want)
			}
			got := toolNames(t, c)
			slices.Sort(got)
			want := []string{"alpha__echo", "alpha__only_alpha", "beta__echo", "beta__only_beta"}
			if !slices.Equal(got, want) {
				t.Fatalf("tools: got %v, want %v", got, want)
			}
			if text, isErr := callText(t, c, "beta__echo", map[string]any{"message": "hi"}); text != "beta:echo:hi" || isErr {
				t.Errorf("call: got %q isError=%v, want beta:echo:hi", text, isErr)
			}
			// The bare name of a tool only one server lists is accepted.
			if text, _ := callText(t, c, "only.alpha", nil); text != "alpha:only.alpha:" {
				t.Errorf("bare call: got %q, want alpha:only.alpha:", text)
			}
		})
	}
	invs, err := f.inv.List(t.Context(), scope, domain.InvocationFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(invs) != 4 {
		t.Fatalf("invocations: got %d, want 4", len(invs))
	}
	for _, inv := range invs {
		if inv.Source != domain.SourceGateway || inv.Client.Name != "test-client" || inv.Client.Version != "1.2.3" {
			t.Errorf("invocation %s: source %q client %+v, want gateway and test-client 1.2.3", inv.Tool, inv.Source, inv.Client)
		}
	}
}

func TestPerServerEndpointKeepsNames(t *testing.T) {
	f := newFixture(t)
	f.connect(t, "alpha", echoCaps("alpha")).OnCall(echoing("alpha"))
	f.connect(t, "beta", echoCaps("beta"))
	c := f.dial(t, "/mcp/alpha", true)
	got := toolNames(t, c)
	slices.Sort(got)
	if want := []string{"echo", "only.alpha"}; !slices.Equal(got, want) {
		t.Fatalf("tools: got %v, want %v", got, want)
	}
	if text, _ := callText(t, c, "echo", map[string]any{"message": "x"}); text != "alpha:echo:x" {
		t.Errorf("call: got %q", text)
	}
	res, err := http.Get(f.srv.URL + "/mcp/nobody")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNotFound {
		t.Errorf("unknown server: got %d, want 404", res.StatusCode)
	}
}

// rpc sends one JSON-RPC request in a legacy session and returns the
// response's result, read from JSON or from the SSE stream.
func rpc(t *testing.T, url, session, body string) json.RawMessage {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", session)
	req.Header.Set("Mcp-Protocol-Version", legacyVersion)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	if strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if line, ok := strings.CutPrefix(sc.Text(), "data: "); ok && strings.Contains(line, `"result"`) {
				data = []byte(line)
			}
		}
	}
	var msg struct {
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(data, &msg); err != nil || msg.Result == nil {
		t.Fatalf("response %s: %v", data, err)
	}
	return msg.Result
}

func TestResultsAndSchemasPassThroughRaw(t *testing.T) {
	f := newFixture(t)
	f.connect(t, "alpha", echoCaps("alpha")).OnCall(echoing("alpha"))
	c := f.dial(t, "/mcp", true)
	session := c.GetSessionId()
	got := string(rpc(t, f.srv.URL+"/mcp", session, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"alpha__echo","arguments":{"message":"m"}}}`))
	for _, want := range []string{`"x-extra":{"kept":true}`, `12345678901234567890}}]`, `"structuredContent":{"big":12345678901234567890}`, `"_meta":{"m":1}`} {
		if !strings.Contains(got, want) {
			t.Errorf("result %s: want it to contain %s", got, want)
		}
	}
	list := string(rpc(t, f.srv.URL+"/mcp", session, `{"jsonrpc":"2.0","id":8,"method":"tools/list"}`))
	for _, want := range []string{`"anyOf":[{"required":["message"]}]`, `"description":"echo input"`, `"$schema":"https://json-schema.org/draft/2020-12/schema"`} {
		if !strings.Contains(list, want) {
			t.Errorf("tools/list %s: want it to contain %s", list, want)
		}
	}
}

func TestPromptsResourcesCompletion(t *testing.T) {
	f := newFixture(t)
	a := f.connect(t, "alpha", echoCaps("alpha"))
	b := f.connect(t, "beta", echoCaps("beta"))
	a.OnRead(func(ctx context.Context, uri string) (json.RawMessage, error) {
		return json.RawMessage(`{"contents":[{"uri":"` + uri + `","text":"from alpha","x-extra":1}]}`), nil
	})
	b.OnRead(func(ctx context.Context, uri string) (json.RawMessage, error) {
		return json.RawMessage(`{"contents":[{"uri":"` + uri + `","text":"from beta"}]}`), nil
	})
	b.OnGetPrompt(func(ctx context.Context, prompt string, args map[string]string) (json.RawMessage, error) {
		return json.RawMessage(`{"description":"d","messages":[{"role":"user","content":{"type":"text","text":"hello ` + args["who"] + `"}}]}`), nil
	})
	b.OnComplete(func(ctx context.Context, req domain.CompleteRequest) (json.RawMessage, error) {
		return json.RawMessage(`{"completion":{"values":["` + req.Ref.Name + ":" + req.Value + `"]}}`), nil
	})
	for _, legacy := range []bool{true, false} {
		c := f.dial(t, "/mcp", legacy)
		read := func(uri string) string {
			res, err := c.ReadResource(t.Context(), mcp.ReadResourceRequest{Params: mcp.ReadResourceParams{URI: uri}})
			if err != nil {
				t.Fatalf("read %s: %v", uri, err)
			}
			return res.Contents[0].(mcp.TextResourceContents).Text
		}
		if got := read("mem://beta/a"); got != "from beta" {
			t.Errorf("read: got %q", got)
		}
		// A URI two servers list goes to the first by name.
		if got := read("mem://shared"); got != "from alpha" {
			t.Errorf("clash: got %q, want from alpha", got)
		}
		if got := read("mem://beta/items/42"); got != "from beta" {
			t.Errorf("template read: got %q", got)
		}
		p, err := c.GetPrompt(t.Context(), mcp.GetPromptRequest{Params: mcp.GetPromptParams{Name: "beta__greet", Arguments: map[string]string{"who": "you"}}})
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Messages[0].Content.(mcp.TextContent).Text; got != "hello you" {
			t.Errorf("prompt: got %q", got)
		}
		comp, err := c.Complete(t.Context(), mcp.CompleteRequest{Params: mcp.CompleteParams{
			Ref: mcp.PromptReference{Type: "ref/prompt", Name: "beta__greet"}, Argument: mcp.CompleteArgument{Name: "who", Value: "y"}}})
		if err != nil {
			t.Fatal(err)
		}
		if got := comp.Completion.Values; len(got) != 1 || got[0] != "greet:y" {
			t.Errorf("completion: got %v, want [greet:y]", got)
		}
	}
}
