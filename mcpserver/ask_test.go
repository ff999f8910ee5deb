package mcpserver_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
	"github.com/switchboard-mcp/switchboard/mcpserver"
)

// The tests here put requests to the gateway's Asker from an upstream
// stand-in: a fake session whose tool asks domain.AskerFrom(ctx), the way
// mcpclient passes a real server's requests on (ask_e2e_test.go runs the
// real path against the demo server).

var (
	elicitReq = domain.ServerRequest{Server: "up", Method: domain.MethodElicit,
		Params: json.RawMessage(`{"message":"Go ahead?","requestedSchema":{"type":"object","properties":{"confirm":{"type":"boolean"}},"required":["confirm"]}}`)}
	sampleReq = domain.ServerRequest{Server: "up", Method: domain.MethodSample,
		Params: json.RawMessage(`{"messages":[{"role":"user","content":{"type":"text","text":"Say hi"}}],"maxTokens":20}`)}
	rootsReq = domain.ServerRequest{Server: "up", Method: domain.MethodRoots}
)

// asking answers each call after putting asks, in turn, to the call's
// Asker, with one line per request: the answer's JSON as it came back,
// or the reason nobody was asked (mcpclient's fallback), or the failure.
// before runs first, when set, to hold the call.
func asking(before func(ctx context.Context) error, asks ...domain.ServerRequest) domaintest.CallHandler {
	return func(ctx context.Context, _ string, _ json.RawMessage, _ func(domain.Progress)) (json.RawMessage, error) {
		if before != nil {
			if err := before(ctx); err != nil {
				return nil, err
			}
		}
		a := domain.AskerFrom(ctx)
		if a == nil {
			return nil, errors.New("the call carries no Asker")
		}
		var lines []string
		for _, req := range asks {
			raw, err := a.Ask(ctx, req)
			switch {
			case errors.Is(err, domain.ErrNotAsked):
				lines = append(lines, "not asked: "+err.Error())
			case err != nil:
				lines = append(lines, "failed: "+err.Error())
			default:
				lines = append(lines, string(raw))
			}
		}
		text, _ := json.Marshal(strings.Join(lines, "\n"))
		return json.RawMessage(`{"content":[{"type":"text","text":` + string(text) + `}]}`), nil
	}
}

// askCaps lists the stand-in's one tool.
var askCaps = domain.Capabilities{Tools: []domain.Tool{{Name: "ask", Raw: []byte(`{"name":"ask","inputSchema":{"type":"object"}}`)}}}

// askGateway is a gateway over f's fleet whose requests carry the token
// of their X-Token header, with a sealing key of the test's; it returns
// the base URL of its /mcp and /mcp/{server}.
func askGateway(t *testing.T, f *fixture) (*mcpserver.Gateway, string) {
	t.Helper()
	key, err := mcpserver.LoadStateKey(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	gw := mcpserver.New(mcpserver.Options{Fleet: f.fleet, Invocations: f.inv, Scope: scope, Clock: f.clock, Version: "test", StateKey: key,
		TokenName: func(ctx context.Context) string { s, _ := ctx.Value(tokenKey{}).(string); return s }})
	mux := http.NewServeMux()
	mux.Handle("/mcp", gw.Aggregated())
	mux.HandleFunc("/mcp/{server}", func(w http.ResponseWriter, r *http.Request) {
		h, ok := gw.Server(r.PathValue("server"))
		if !ok {
			http.NotFound(w, r)
			return
		}
		h.ServeHTTP(w, r)
	})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mux.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), tokenKey{}, r.Header.Get("X-Token"))))
	}))
	t.Cleanup(func() {
		gw.Close(context.Background())
		srv.Close()
	})
	return gw, srv.URL
}

// lastCard is the newest invocation of tool ask.
func lastCard(t *testing.T, f *fixture) domain.Invocation {
	t.Helper()
	invs, err := f.inv.List(t.Context(), scope, domain.InvocationFilter{Tool: "ask"})
	if err != nil || len(invs) == 0 {
		t.Fatalf("cards of ask: %v, %v", invs, err)
	}
	return invs[0]
}

var eras = []struct {
	name   string
	legacy bool
}{{"legacy", true}, {"2026-07-28", false}}

// TestServerAsksReachTheCallingClient: elicitation, sampling and roots/list
// a server sends during a call reach the client that made it, in both
// eras (a request on a legacy session; input_required rounds for a
// 2026-07-28 client, which mcp-go's client answers and retries), and the
// server gets the client's answers; the card records each as answered.
func TestServerAsksReachTheCallingClient(t *testing.T) {
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			f := newFixture(t)
			sess := f.connect(t, "up", askCaps)
			sess.OnCall(asking(nil, elicitReq, sampleReq, rootsReq))
			_, url := askGateway(t, f)
			a := &answerer{name: "claude"}
			c := dialAnswering(t, url+"/mcp", "laptop", era.legacy, a, nil)

			text, isErr := callText(t, c, "up__ask", nil)
			if isErr {
				t.Fatalf("call: %s", text)
			}
			lines := strings.Split(text, "\n")
			if len(lines) != 3 {
				t.Fatalf("answers: got %q", text)
			}
			for i, want := range []string{`"action":"accept"`, `"model":"model-of-claude"`, `"uri":"file:///work/claude"`} {
				if !strings.Contains(lines[i], want) {
					t.Errorf("answer %d: got %s, want it to contain %s", i, lines[i], want)
				}
			}
			if !strings.Contains(lines[0], `"by":"claude"`) {
				t.Errorf("elicitation answer: got %s, want the client's content", lines[0])
			}
			a.mu.Lock()
			if len(a.elicits) != 1 || a.elicits[0].Message != "Go ahead?" || a.samples != 1 || a.roots != 1 {
				t.Errorf("client was asked: %+v, %d samples, %d roots; want each once, as the server asked", a.elicits, a.samples, a.roots)
			}
			a.mu.Unlock()
			card := lastCard(t, f)
			if len(card.Asks) != 3 {
				t.Fatalf("card asks: got %+v, want 3", card.Asks)
			}
			for i, m := range []string{domain.MethodElicit, domain.MethodSample, domain.MethodRoots} {
				if r := card.Asks[i]; r.Method != m || r.Outcome != domain.AskAnswered {
					t.Errorf("card ask %d: got %+v, want %s answered", i, r, m)
				}
			}
		})
	}
}

// TestClientWithoutCapabilityIsNotAsked: a client that declared none of
// the three is not asked; the server's caller hears why (the fallback
// mcpclient sends), and so does the card.
func TestClientWithoutCapabilityIsNotAsked(t *testing.T) {
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			f := newFixture(t)
			sess := f.connect(t, "up", askCaps)
			sess.OnCall(asking(nil, elicitReq, rootsReq))
			_, url := askGateway(t, f)
			c := dialAnswering(t, url+"/mcp/up", "laptop", era.legacy, nil, nil)

			text, _ := callText(t, c, "ask", nil)
			for _, want := range []string{`not asked: nobody could be asked: the calling client "plain 1" did not declare elicitation`,
				`the calling client "plain 1" did not declare roots`} {
				if !strings.Contains(text, want) {
					t.Errorf("result: got %q, want it to contain %q", text, want)
				}
			}
			card := lastCard(t, f)
			if len(card.Asks) != 2 || card.Asks[0].Outcome != domain.AskNotAsked || !strings.Contains(card.Asks[0].Detail, "did not declare elicitation") {
				t.Errorf("card asks: got %+v, want elicitation not asked, saying why", card.Asks)
			}
		})
	}
}

// TestConcurrentClientsAreAskedOnlyTheirOwn: four clients of both eras
// call at once; each is asked only by its own call and each call gets
// only its own client's answer.
func TestConcurrentClientsAreAskedOnlyTheirOwn(t *testing.T) {
	f := newFixture(t)
	sess := f.connect(t, "up", askCaps)
	const n = 4
	var inside sync.WaitGroup
	inside.Add(n)
	all := make(chan struct{})
	go func() { inside.Wait(); close(all) }()
	// Every call waits for the others to be running before it asks, so
	// the four are in flight together.
	sess.OnCall(asking(func(ctx context.Context) error {
		inside.Done()
		select {
		case <-all:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}, elicitReq, rootsReq))
	_, url := askGateway(t, f)
	names := []string{"alpha", "beta", "gamma", "delta"}
	answerers := make([]*answerer, n)
	clients := make([]*client.Client, n)
	for i, name := range names {
		answerers[i] = &answerer{name: name}
		clients[i] = dialAnswering(t, url+"/mcp/up", "token-"+name, i%2 == 0, answerers[i], nil)
	}
	texts := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			req := mcp.CallToolRequest{}
			req.Params.Name = "ask"
			res, err := clients[i].CallTool(t.Context(), req)
			if err != nil {
				t.Errorf("%s: %v", names[i], err)
				return
			}
			texts[i] = resultText(res)
		})
	}
	wg.Wait()
	for i, name := range names {
		if !strings.Contains(texts[i], `"by":"`+name+`"`) || !strings.Contains(texts[i], "file:///work/"+name) {
			t.Errorf("%s: got %q, want its own answers", name, texts[i])
		}
		for _, other := range names {
			if other != name && strings.Contains(texts[i], other) {
				t.Errorf("%s got %s's answer: %q", name, other, texts[i])
			}
		}
		a := answerers[i]
		a.mu.Lock()
		if len(a.elicits) != 1 || a.roots != 1 {
			t.Errorf("%s was asked %d elicitations and %d roots, want 1 each", name, len(a.elicits), a.roots)
		}
		a.mu.Unlock()
	}
}
