package mcpclient_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/mcpclient"
)

// askFunc is a domain.Asker made of a function.
type askFunc func(context.Context, domain.ServerRequest) (json.RawMessage, error)

func (f askFunc) Ask(ctx context.Context, req domain.ServerRequest) (json.RawMessage, error) {
	return f(ctx, req)
}

// neverAsked is the Asker of a call whose caller must not be asked: a
// request reaching it went to the wrong caller.
func neverAsked(t *testing.T, who string) domain.Asker {
	return askFunc(func(_ context.Context, req domain.ServerRequest) (json.RawMessage, error) {
		t.Errorf("%s was asked %s, which was not its call's request", who, req.Method)
		return nil, errors.New("wrong caller")
	})
}

// toolOutcome is a tool result's text and whether it is a tool error.
type toolOutcome struct {
	text    string
	isError bool
}

func outcomeOf(t *testing.T, res json.RawMessage) toolOutcome {
	t.Helper()
	var r struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
		IsError bool `json:"isError"`
	}
	if err := json.Unmarshal(res, &r); err != nil {
		t.Errorf("result %s: %v", res, err)
	}
	var texts []string
	for _, c := range r.Content {
		texts = append(texts, c.Text)
	}
	return toolOutcome{text: strings.Join(texts, "\n"), isError: r.IsError}
}

// callWith calls tool on s with asker as the call's Asker. It may run in
// an Asker, off the test's goroutine, so a failure does not stop the test.
func callWith(t *testing.T, ctx context.Context, s domain.Session, asker domain.Asker, tool, args string) toolOutcome {
	t.Helper()
	res, err := s.CallTool(domain.WithAsker(ctx, asker), tool, json.RawMessage(args), nil)
	if err != nil {
		t.Errorf("CallTool(%s): %v", tool, err)
		return toolOutcome{text: err.Error(), isError: true}
	}
	return outcomeOf(t, res)
}

// callLimit is far beyond mcp-go's own 30 second limit on answering a
// server's request, so an Asker can tell the call's ctx from mcp-go's.
const callLimit = 10 * time.Minute

type callValueKey struct{}

// demoHTTP runs the demo server over streamable HTTP behind a proxy that
// records every JSON-RPC response Switchboard POSTs to it, and returns the
// session's config and the record.
func demoHTTP(t *testing.T) (domain.ServerConfig, *answerLog) {
	t.Helper()
	_, endpoint := startDemoRemote(t, "http", "127.0.0.1:0")
	target, err := url.Parse(endpoint)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: target.Scheme, Host: target.Host})
	proxy.FlushInterval = -1 // event streams pass at once
	log := &answerLog{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			body, err := io.ReadAll(r.Body)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			log.add(r.Header, body)
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	cfg := remote(domain.TransportHTTP, srv.URL+target.Path)
	cfg.Name = "demo"
	cfg.Headers = map[string]string{"X-Switchboard-Test": "configured"}
	return cfg, log
}

// answerLog is the JSON-RPC responses POSTed to a server, with their
// headers.
type answerLog struct {
	mu      sync.Mutex // guards answers
	answers []postedAnswer
}

type postedAnswer struct {
	header http.Header
	body   map[string]json.RawMessage
}

func (l *answerLog) add(h http.Header, body []byte) {
	var m map[string]json.RawMessage
	if json.Unmarshal(body, &m) != nil {
		return
	}
	if _, isRequest := m["method"]; isRequest {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.answers = append(l.answers, postedAnswer{header: h.Clone(), body: m})
}

func (l *answerLog) all() []postedAnswer {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.answers)
}

func demoStdioNamed() domain.ServerConfig {
	cfg := demoStdio()
	cfg.Name = "demo"
	return cfg
}

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

// On streamable HTTP, a request on a call's own response stream is tied to
// that call even while others run; one on the GET stream is tied to a call
// only when it is the only one running.
func TestServerRequestsOverHTTPStreams(t *testing.T) {
	t.Parallel()
	cfg, _ := demoHTTP(t)
	workspace := t.TempDir()
	s := connect(t, mcpclient.New(mcpclient.Options{ProtocolVersion: mcp.ProtocolVersion20251125, Workspace: workspace}), cfg, nil)
	ctx := connectCtx(t)
	var elicited, roots toolOutcome
	sampler := askFunc(func(_ context.Context, req domain.ServerRequest) (json.RawMessage, error) {
		// ask_model's sampling request came on the GET stream while it was
		// the only call. Now two calls run: confirm_action's elicitation
		// comes on its own POST stream and reaches its caller...
		elicited = callWith(t, ctx, s, askFunc(func(context.Context, domain.ServerRequest) (json.RawMessage, error) {
			return json.RawMessage(`{"action":"accept","content":{"confirm":false}}`), nil
		}), "confirm_action", `{}`)
		// ...and list_roots' request on the GET stream reaches nobody and,
		// tied to no call, gets no roots.
		roots = callWith(t, ctx, s, neverAsked(t, "list_roots' caller"), "list_roots", `{}`)
		return json.RawMessage(`{"role":"assistant","content":{"type":"text","text":"mine"},"model":"m"}`), nil
	})
	out := callWith(t, ctx, s, sampler, "ask_model", `{"question":"Whose?"}`)
	if out.isError || !strings.Contains(out.text, `"text":"mine"`) {
		t.Errorf("ask_model result %+v, want its caller's answer", out)
	}
	if elicited.isError || !strings.Contains(elicited.text, `"content":{"confirm":false}`) {
		t.Errorf("confirm_action result %+v, want its caller's answer", elicited)
	}
	if roots.isError || !strings.Contains(roots.text, `{"roots":[]}`) {
		t.Errorf("list_roots result %+v, want no roots", roots)
	}
	// Alone, list_roots is tied to its call; a caller that cannot be asked
	// (a person's Run) gets the workspace Switchboard serves.
	roots = callWith(t, ctx, s, askFunc(func(context.Context, domain.ServerRequest) (json.RawMessage, error) {
		return nil, fmt.Errorf("%w: made in the dashboard", domain.ErrNotAsked)
	}), "list_roots", `{}`)
	if want := "file://" + filepath.ToSlash(workspace); roots.isError || !strings.Contains(roots.text, want) {
		t.Errorf("list_roots result %+v, want the workspace %s", roots, want)
	}
}

// server-everything registers its elicitation, sampling and roots tools
// only for a client that declares those capabilities; its roots/list,
// sent on its own shortly after the session starts, with no call running,
// gets no roots, so it keeps the directories it was started with.
func TestStdioEverythingAsksTheCaller(t *testing.T) {
	t.Parallel()
	workspace := t.TempDir()
	rootsSynced := make(chan struct{})
	var once sync.Once
	opts := mcpclient.Options{Workspace: workspace, Notifications: func(n domain.ServerNotification) {
		if strings.Contains(string(n.Params), "Roots updated: 0 root(s)") {
			once.Do(func() { close(rootsSynced) })
		}
	}}
	s := connect(t, mcpclient.New(opts), everythingStdio(t), nil)
	select {
	case <-rootsSynced:
	case <-time.After(eventTimeout):
		t.Fatalf("server-everything did not report its roots within %s", eventTimeout)
	}
	ctx := connectCtx(t)
	var params json.RawMessage
	out := callWith(t, ctx, s, askFunc(func(_ context.Context, req domain.ServerRequest) (json.RawMessage, error) {
		params = req.Params
		return json.RawMessage(`{"action":"accept","content":{"name":"Ada","check":true}}`), nil
	}), "trigger-elicitation-request", `{}`)
	if !strings.Contains(out.text, "User provided the requested information") || !strings.Contains(out.text, `"name": "Ada"`) {
		t.Errorf("trigger-elicitation-request result %+v, want the caller's answer", out)
	}
	for _, frag := range []string{`"default":3.14`, `"default":"It was a dark and stormy night."`, `"format":"email"`} {
		if !strings.Contains(string(params), frag) {
			t.Errorf("elicitation params %s, want %s in them", params, frag)
		}
	}
	out = callWith(t, ctx, s, askFunc(func(context.Context, domain.ServerRequest) (json.RawMessage, error) {
		return json.RawMessage(`{"role":"assistant","content":{"type":"text","text":"hi"},"model":"caller-model"}`), nil
	}), "trigger-sampling-request", `{"prompt":"Say hi"}`)
	if out.isError || !strings.Contains(out.text, "caller-model") {
		t.Errorf("trigger-sampling-request result %+v, want the caller's answer", out)
	}
	// get-roots-list reports the roots it was given at start: none, not
	// the workspace of whichever project Switchboard runs in.
	out = callWith(t, ctx, s, neverAsked(t, "get-roots-list's caller"), "get-roots-list", `{}`)
	if out.isError || strings.Contains(out.text, filepath.ToSlash(workspace)) {
		t.Errorf("get-roots-list result %+v, want no roots", out)
	}
}

// Over legacy SSE, whose transport cannot send answers, Switchboard
// declares no capability, so server-everything offers none of the tools
// that would ask.
func TestSSEDeclaresNoAskCapabilities(t *testing.T) {
	t.Parallel()
	entry := everything(t)
	port := freePort(t)
	cmd := exec.Command("node", entry, "sse")
	cmd.Env = append(cmd.Environ(), "PORT="+port)
	startServer(t, cmd, "Server is running on port", true)
	s := connect(t, mcpclient.New(mcpclient.Options{}), remote(domain.TransportSSE, "http://127.0.0.1:"+port+"/sse"), nil)
	caps := loadAll(t, s)
	for _, tool := range caps.Tools {
		switch tool.Name {
		case "get-roots-list", "trigger-elicitation-request", "trigger-sampling-request", "trigger-url-elicitation":
			t.Errorf("server-everything offers %s over SSE, so a capability was declared", tool.Name)
		}
	}
	if len(caps.Tools) == 0 {
		t.Errorf("no tools listed over SSE")
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
