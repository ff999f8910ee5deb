package mcpclient_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/mcpclient"
)

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
