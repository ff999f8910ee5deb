package mcpclient_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/mcpclient"
)

// On 2026-07-28 a server asks through input_required results; the call's
// Asker answers them, as it answers a 2025 server's requests, and the
// call is retried with the answer and the server's requestState.
func TestModernInputRequiredReachesTheCaller(t *testing.T) {
	t.Parallel()
	e := startEraServer(t, string(mcp.MethodInitialize))
	workspace := t.TempDir()
	s := connect(t, mcpclient.New(mcpclient.Options{Workspace: workspace}), e.config(), nil)
	var asked []domain.ServerRequest
	asker := askFunc(func(_ context.Context, req domain.ServerRequest) (json.RawMessage, error) {
		asked = append(asked, req)
		return json.RawMessage(`{"action":"accept","content":{"sure":true}}`), nil
	})
	res, err := s.CallTool(domain.WithAsker(connectCtx(t), asker), "confirm", nil, nil)
	if err != nil {
		t.Fatalf("CallTool(confirm): %v", err)
	}
	if len(asked) != 1 || asked[0].Method != domain.MethodElicit || asked[0].Server != "remote" ||
		!strings.Contains(string(asked[0].Params), `"Sure?"`) {
		t.Errorf("asked %+v, want one elicitation/create saying Sure?", asked)
	}
	if !strings.Contains(string(res), `\"sure\":true`) {
		t.Errorf("result %s, want the answer reported", res)
	}

	// Nobody to ask about roots: the workspace.
	res, err = s.CallTool(connectCtx(t), "roots", nil, nil)
	if err != nil {
		t.Fatalf("CallTool(roots): %v", err)
	}
	if !strings.Contains(string(res), "file://") {
		t.Errorf("roots result %s, want the workspace", res)
	}

	// Nobody to ask about an elicitation: the call fails saying so.
	_, err = s.CallTool(connectCtx(t), "confirm", nil, nil)
	if !errors.Is(err, domain.ErrNotAsked) && (err == nil || !strings.Contains(err.Error(), "without anyone to answer")) {
		t.Errorf("CallTool(confirm) without an Asker = %v, want it refused as nobody was asked", err)
	}
}

// The subscriptions/listen stream brings list changes, and is reopened
// after it drops, announcing every list it covers, since changes made
// meanwhile were never sent.
func TestModernListenStreamReopens(t *testing.T) {
	t.Parallel()
	e := startEraServer(t, string(mcp.MethodInitialize))
	e.cutListen.Store(true) // the first stream drops
	s := connect(t, mcpclient.New(mcpclient.Options{}), e.config(), nil)
	waitFor(t, "the listen stream reopened", func() bool {
		return e.count(string(mcp.MethodSubscriptionsListen)) >= 2
	})
	waitChange(t, s, domain.ListTools) // announced after the drop
	growUntilHeard(t, s)               // sent on the reopened stream
}

// growUntilHeard calls grow until its tools/list_changed arrives: the
// server may see the listen request a moment before it subscribes it.
func growUntilHeard(t *testing.T, s domain.Session) {
	t.Helper()
	deadline := time.Now().Add(eventTimeout)
	for time.Now().Before(deadline) {
		if _, err := s.CallTool(connectCtx(t), "grow", nil, nil); err != nil {
			t.Fatalf("CallTool(grow): %v", err)
		}
		select {
		case kind := <-s.Changes():
			if kind == domain.ListTools {
				return
			}
		case <-time.After(200 * time.Millisecond):
		}
	}
	t.Fatalf("no tools/list_changed within %s", eventTimeout)
}

// waitFor polls cond until it holds or eventTimeout passes.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(eventTimeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("no %s within %s", what, eventTimeout)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A 2026-07-28 list that may be reused for a while (ttlMs) is not asked
// for again until it changes.
func TestModernListReusedForItsTTL(t *testing.T) {
	t.Parallel()
	e := startEraServer(t, string(mcp.MethodInitialize),
		server.WithMethodCacheHints(mcp.MethodToolsList, time.Hour.Milliseconds(), mcp.CacheScopePrivate))
	s := connect(t, mcpclient.New(mcpclient.Options{}), e.config(), nil)
	for range 2 {
		if _, err := s.List(connectCtx(t), domain.ListTools); err != nil {
			t.Fatalf("List: %v", err)
		}
	}
	if n := e.count(string(mcp.MethodToolsList)); n != 1 {
		t.Errorf("tools/list sent %d times within its ttlMs, want 1", n)
	}
	growUntilHeard(t, s)
	caps, err := s.List(connectCtx(t), domain.ListTools)
	if err != nil {
		t.Fatalf("List: %v", err)
	}
	if n := e.count(string(mcp.MethodToolsList)); n != 2 || len(caps.Tools) != 5 {
		t.Errorf("after a change: tools/list sent %d times, %d tools; want 2 and 5", n, len(caps.Tools))
	}
}

// On 2026-07-28 a resource subscription travels on the listen stream: it
// is reopened with the resource added, and without it once unsubscribed.
func TestModernResourceSubscriptionReopensTheListenStream(t *testing.T) {
	t.Parallel()
	e := startEraServer(t, string(mcp.MethodInitialize), server.WithResourceCapabilities(true, false))
	e.srv.AddResource(mcp.NewResource("era://a", "a"), func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		return []mcp.ResourceContents{mcp.TextResourceContents{URI: "era://a", Text: "A"}}, nil
	})
	s := connect(t, mcpclient.New(mcpclient.Options{}), e.config(), nil)
	offer, ok := s.(domain.ResourceSubscribeOffer)
	if !ok || !offer.OffersResourceSubscriptions() {
		t.Fatal("session does not offer resource subscriptions, want it to")
	}
	sub := s.(domain.ResourceSubscriber)
	waitFor(t, "the listen stream", func() bool { return len(e.listenBodies()) >= 1 })
	if err := sub.SubscribeResource(connectCtx(t), "era://a"); err != nil {
		t.Fatalf("SubscribeResource: %v", err)
	}
	waitFor(t, "a listen stream carrying era://a", func() bool {
		b := e.listenBodies()
		return len(b) >= 2 && strings.Contains(b[len(b)-1], `"era://a"`)
	})
	if err := sub.UnsubscribeResource(connectCtx(t), "era://a"); err != nil {
		t.Fatalf("UnsubscribeResource: %v", err)
	}
	waitFor(t, "a listen stream without era://a", func() bool {
		b := e.listenBodies()
		return len(b) >= 3 && !strings.Contains(b[len(b)-1], `"era://a"`)
	})
}

// The demo server asks in whichever era it is spoken to: on 2026-07-28
// its questions come as input_required results and reach the caller's
// Asker just as its requests do on the handshake era.
func TestDemoAsksTheCallerOnModernEra(t *testing.T) {
	t.Parallel()
	for _, transport := range []string{"stdio", "http"} {
		t.Run(transport, func(t *testing.T) {
			t.Parallel()
			cfg := demoStdioNamed()
			if transport == "http" {
				cfg, _ = demoHTTP(t)
			}
			s := connect(t, mcpclient.New(mcpclient.Options{}), cfg, nil)
			if got := s.ProtocolVersion(); got != mcp.ProtocolVersion20260728 {
				t.Fatalf("ProtocolVersion() = %q, want 2026-07-28", got)
			}
			tests := []struct {
				tool, args, method, param, answer, wantText string
			}{
				{"confirm_action", `{"action":"ship it"}`, domain.MethodElicit, `"message":"Go ahead and ship it?"`,
					`{"action":"accept","content":{"confirm":true}}`, `"confirm":true`},
				{"ask_model", `{"question":"What is six times seven?"}`, domain.MethodSample, `"text":"What is six times seven?"`,
					`{"role":"assistant","content":{"type":"text","text":"42"},"model":"caller-model"}`, `caller-model`},
				{"list_roots", `{}`, domain.MethodRoots, ``,
					`{"roots":[{"uri":"file:///caller/project","name":"the caller's"}]}`, `file:///caller/project`},
			}
			for _, tt := range tests {
				var got []domain.ServerRequest
				asker := askFunc(func(_ context.Context, req domain.ServerRequest) (json.RawMessage, error) {
					got = append(got, req)
					return json.RawMessage(tt.answer), nil
				})
				out := callWith(t, connectCtx(t), s, asker, tt.tool, tt.args)
				if out.isError || !strings.Contains(out.text, tt.wantText) {
					t.Errorf("%s result %+v, want the answer's %s", tt.tool, out, tt.wantText)
				}
				if len(got) != 1 || got[0].Method != tt.method || got[0].Server != "demo" ||
					!strings.Contains(string(got[0].Params), tt.param) {
					t.Errorf("%s: asked %+v, want one %s from demo with %s", tt.tool, got, tt.method, tt.param)
				}
			}
		})
	}
}
