package mcpclient_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/mcpclient"
)

// The caller's Asker gets each request with its params as the server sent
// them, on the call's own ctx, and its answer reaches the server as given.
func TestServerRequestsReachTheCaller(t *testing.T) {
	t.Parallel()
	for _, transport := range []string{"stdio", "http"} {
		t.Run(transport, func(t *testing.T) {
			t.Parallel()
			cfg, log := demoStdioNamed(), (*answerLog)(nil)
			if transport == "http" {
				cfg, log = demoHTTP(t)
			}
			s := connect(t, mcpclient.New(mcpclient.Options{ProtocolVersion: mcp.ProtocolVersion20251125, Workspace: t.TempDir()}), cfg, nil)
			tests := []struct {
				tool, args, method string
				wantParams         []string // fragments of the params as sent
				answer             string
				wantText           string
			}{
				{"confirm_action", `{"action":"ship it"}`, domain.MethodElicit,
					[]string{`"message":"Go ahead and ship it?"`, `"confirm":{"description":"Whether to ship it.","title":"Go ahead","type":"boolean"}`},
					`{"action":"accept","content":{"confirm":true,"reason":"tests pass <fine>"}}`,
					`"content":{"confirm":true,"reason":"tests pass \u003cfine\u003e"}`},
				{"ask_model", `{"question":"What is six times seven?"}`, domain.MethodSample,
					[]string{`"text":"What is six times seven?"`, `"maxTokens":200`, `"systemPrompt":"Answer in one short paragraph."`},
					`{"role":"assistant","content":{"type":"text","text":"42"},"model":"caller-model"}`,
					`"model":"caller-model"`},
				{"list_roots", `{}`, domain.MethodRoots, nil,
					`{"roots":[{"uri":"file:///caller/project","name":"the caller's"}]}`,
					`"uri":"file:///caller/project"`},
			}
			for _, tt := range tests {
				ctx, cancel := context.WithTimeout(context.WithValue(context.Background(), callValueKey{}, tt.tool), callLimit)
				want, _ := ctx.Deadline()
				var got []domain.ServerRequest
				asker := askFunc(func(ctx context.Context, req domain.ServerRequest) (json.RawMessage, error) {
					got = append(got, req)
					if dl, _ := ctx.Deadline(); !dl.Equal(want) || ctx.Value(callValueKey{}) != tt.tool {
						t.Errorf("%s: asked on a ctx with deadline %v and call %v, want the call's own (%v, %s)",
							tt.tool, dl, ctx.Value(callValueKey{}), want, tt.tool)
					}
					return json.RawMessage(tt.answer), nil
				})
				out := callWith(t, ctx, s, asker, tt.tool, tt.args)
				cancel()
				if out.isError || !strings.Contains(out.text, tt.wantText) {
					t.Errorf("%s result %+v, want the answer's %s", tt.tool, out, tt.wantText)
				}
				if len(got) != 1 || got[0].Method != tt.method || got[0].Server != "demo" {
					t.Fatalf("%s: asked %+v, want one %s from demo", tt.tool, got, tt.method)
				}
				for _, frag := range tt.wantParams {
					if !strings.Contains(string(got[0].Params), frag) {
						t.Errorf("%s params %s, want %s in them", tt.tool, got[0].Params, frag)
					}
				}
			}
			if log == nil {
				return
			}
			// mcp-go sends nothing itself (it would under a 30 second
			// limit): every answer is Switchboard's own POST, made as
			// mcp-go makes its requests.
			answers := log.all()
			if len(answers) != len(tests) {
				t.Fatalf("%d answers POSTed, want %d", len(answers), len(tests))
			}
			for _, a := range answers {
				h := a.header
				if h.Get("Mcp-Session-Id") == "" || h.Get("Mcp-Protocol-Version") != s.ProtocolVersion() ||
					h.Get("X-Switchboard-Test") != "configured" || h.Get("Content-Type") != "application/json" ||
					h.Get("Accept") != "application/json, text/event-stream" {
					t.Errorf("answer headers %v, want the session, protocol version, configured header and JSON types", h)
				}
				if a.body["result"] == nil || a.body["id"] == nil {
					t.Errorf("answer %v, want a result for a request id", a.body)
				}
			}
		})
	}
}

// When the caller's Asker could not ask anyone, elicitation and sampling
// are refused with its reason and roots/list gets the workspace.
func TestServerRequestsNobodyCouldBeAskedFallBack(t *testing.T) {
	t.Parallel()
	for _, transport := range []string{"stdio", "http"} {
		t.Run(transport, func(t *testing.T) {
			t.Parallel()
			cfg := demoStdioNamed()
			if transport == "http" {
				cfg, _ = demoHTTP(t)
			}
			workspace := filepath.Join(t.TempDir(), "my project")
			s := connect(t, mcpclient.New(mcpclient.Options{ProtocolVersion: mcp.ProtocolVersion20251125, Workspace: workspace}), cfg, nil)
			notAsked := askFunc(func(_ context.Context, req domain.ServerRequest) (json.RawMessage, error) {
				return nil, fmt.Errorf("%w: the calling client does not support %s", domain.ErrNotAsked, req.Method)
			})
			for _, tt := range []struct{ tool, args, want string }{
				{"confirm_action", `{}`, "the calling client does not support elicitation/create"},
				{"ask_model", `{"question":"Why?"}`, "the calling client does not support sampling/createMessage"},
			} {
				out := callWith(t, connectCtx(t), s, notAsked, tt.tool, tt.args)
				if !out.isError || !strings.Contains(out.text, tt.want) {
					t.Errorf("%s result %+v, want a tool error quoting %q", tt.tool, out, tt.want)
				}
			}
			out := callWith(t, connectCtx(t), s, notAsked, "list_roots", `{}`)
			uri := "file://" + filepath.ToSlash(strings.ReplaceAll(workspace, " ", "%20"))
			if want := fmt.Sprintf(`{"roots":[{"uri":"%s","name":"my project"}]}`, uri); out.isError || out.text != want {
				t.Errorf("list_roots result %+v, want %s", out, want)
			}
		})
	}
}

// Requests that cannot be tied to one call are answered by Switchboard and
// reach no caller: on stdio none is tied to its call, so with two calls in
// flight neither caller is asked.
func TestServerRequestsOfOverlappingStdioCallsReachNobody(t *testing.T) {
	t.Parallel()
	s := connect(t, mcpclient.New(mcpclient.Options{ProtocolVersion: mcp.ProtocolVersion20251125}), demoStdioNamed(), nil)
	ctx := connectCtx(t)
	var second toolOutcome
	first := askFunc(func(_ context.Context, req domain.ServerRequest) (json.RawMessage, error) {
		// confirm_action is still running: ask_model's request comes while
		// two calls are in flight.
		second = callWith(t, ctx, s, neverAsked(t, "ask_model's caller"), "ask_model", `{"question":"Whose?"}`)
		return json.RawMessage(`{"action":"decline"}`), nil
	})
	out := callWith(t, ctx, s, first, "confirm_action", `{}`)
	if out.isError || !strings.Contains(out.text, `"action":"decline"`) {
		t.Errorf("confirm_action result %+v, want its caller's decline", out)
	}
	if !second.isError || !strings.Contains(second.text, "2 calls were running") {
		t.Errorf("ask_model result %+v, want a tool error saying two calls were running", second)
	}
}

// An Asker's own failure goes back to the server: a JSON-RPC error the
// answering client sent keeps its code and message, any other failure
// and an answer that is not JSON become an internal error saying so.
func TestServerRequestsAskerFailuresReachTheServer(t *testing.T) {
	t.Parallel()
	s := connect(t, mcpclient.New(mcpclient.Options{ProtocolVersion: mcp.ProtocolVersion20251125}), demoStdioNamed(), nil)
	for _, tt := range []struct {
		name   string
		answer json.RawMessage
		err    error
		want   string
	}{
		{"client-error", nil, &domain.ServerError{Code: -1, Message: "User rejected the request"}, "User rejected the request"},
		{"failure", nil, errors.New("the client's session ended"), "the client's session ended"},
		{"not-json", json.RawMessage(`{"action":`), nil, "the answer to the server's elicitation/create was not JSON"},
	} {
		out := callWith(t, connectCtx(t), s, askFunc(func(context.Context, domain.ServerRequest) (json.RawMessage, error) {
			return tt.answer, tt.err
		}), "confirm_action", `{}`)
		if !out.isError || !strings.Contains(out.text, tt.want) {
			t.Errorf("%s: result %+v, want a tool error quoting %q", tt.name, out, tt.want)
		}
	}
}
