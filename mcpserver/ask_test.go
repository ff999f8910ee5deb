package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
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

// answerer is an AI client's side: it answers every request it is put
// with its own name in the answer, and counts them.
type answerer struct {
	name string
	// hold, when set, runs before each elicitation is answered: the
	// test's chance to act while the client is being asked.
	hold func(n int)

	mu      sync.Mutex // guards the fields below
	elicits []mcp.ElicitationParams
	samples int
	roots   int
}

func (a *answerer) Elicit(_ context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	a.mu.Lock()
	a.elicits = append(a.elicits, req.Params)
	n := len(a.elicits)
	a.mu.Unlock()
	if a.hold != nil {
		a.hold(n)
	}
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{
		Action: mcp.ElicitationResponseActionAccept, Content: map[string]any{"confirm": true, "by": a.name, "n": n}}}, nil
}

func (a *answerer) CreateMessage(_ context.Context, _ mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	a.mu.Lock()
	a.samples++
	a.mu.Unlock()
	return &mcp.CreateMessageResult{Model: "model-of-" + a.name, StopReason: "endTurn",
		SamplingMessage: mcp.SamplingMessage{Role: mcp.RoleAssistant, Content: mcp.NewTextContent("hi from " + a.name)}}, nil
}

func (a *answerer) ListRoots(_ context.Context, _ mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	a.mu.Lock()
	a.roots++
	a.mu.Unlock()
	return &mcp.ListRootsResult{Roots: []mcp.Root{{URI: "file:///work/" + a.name, Name: a.name}}}, nil
}

// dialAnswering connects an mcp-go client as token to url. With a, it
// answers elicitation, sampling and roots; a legacy client keeps its GET
// stream open, which sampling and roots/list travel on. hc, when set,
// carries its HTTP.
func dialAnswering(t *testing.T, url, token string, legacy bool, a *answerer, hc *http.Client) *client.Client {
	t.Helper()
	topts := []transport.StreamableHTTPCOption{transport.WithHTTPHeaders(map[string]string{"X-Token": token})}
	if hc != nil {
		topts = append(topts, transport.WithHTTPBasicClient(hc))
	}
	var copts []client.ClientOption
	if legacy {
		topts = append(topts, transport.WithContinuousListening())
		copts = append(copts, client.WithProtocolVersion(legacyVersion))
	}
	name := "plain"
	if a != nil {
		name = a.name
		copts = append(copts, client.WithElicitationHandler(a), client.WithSamplingHandler(a), client.WithRootsHandler(a))
	}
	tr, err := transport.NewStreamableHTTP(url, topts...)
	if err != nil {
		t.Fatal(err)
	}
	c := client.NewClient(tr, copts...)
	if err := c.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: name, Version: "1"}
	if _, err := c.Initialize(t.Context(), init); err != nil {
		t.Fatal(err)
	}
	if got := c.ProtocolVersion() == "2026-07-28"; got == legacy {
		t.Fatalf("%s negotiated %q", name, c.ProtocolVersion())
	}
	return c
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

// exchange is one tools/call POST a client made, as it went on the wire.
type exchange struct {
	header   http.Header
	body     string
	response string
}

// spy records the tools/call exchanges of a 2026-07-28 client, whose
// answers are single responses, so a test can replay them by hand.
type spy struct {
	mu        sync.Mutex // guards exchanges
	exchanges []exchange
}

func (s *spy) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		body, _ = io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(body))
	}
	res, err := http.DefaultTransport.RoundTrip(req)
	if err != nil || !bytes.Contains(body, []byte(`"tools/call"`)) {
		return res, err
	}
	resp, err := io.ReadAll(res.Body)
	res.Body.Close()
	res.Body = io.NopCloser(bytes.NewReader(resp))
	s.mu.Lock()
	s.exchanges = append(s.exchanges, exchange{header: req.Header.Clone(), body: string(body), response: string(resp)})
	s.mu.Unlock()
	return res, err
}

func (s *spy) get(i int) exchange {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.exchanges[i]
}

// requestState is the requestState of an input_required response.
func requestState(t *testing.T, response string) string {
	t.Helper()
	i := strings.Index(response, "{")
	var msg struct {
		Result struct {
			ResultType   string `json:"resultType"`
			RequestState string `json:"requestState"`
		} `json:"result"`
	}
	if i < 0 || json.Unmarshal([]byte(strings.TrimSpace(response[i:])), &msg) != nil || msg.Result.RequestState == "" {
		t.Fatalf("no requestState in %s", response)
	}
	return msg.Result.RequestState
}

// replay sends body as a tools/call with header, token's X-Token instead.
func replay(t *testing.T, url string, header http.Header, token, body string) string {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(body))
	req.Header = header.Clone()
	req.Header.Set("X-Token", token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	return string(data)
}

// TestRequestStateIsSealedToItsRoundAndClient: a 2026-07-28 client's
// retry resumes only the call and round its sealed requestState names,
// and only for the client it was issued to: a tampered, replayed, foreign
// or expired state is refused with a clear tool error, and none of them
// reaches the server. A retry after the call ended gets its result.
func TestRequestStateIsSealedToItsRoundAndClient(t *testing.T) {
	f := newFixture(t)
	sess := f.connect(t, "up", askCaps)
	sess.OnCall(asking(nil, elicitReq, elicitReq))
	_, url := askGateway(t, f)
	url += "/mcp/up"
	sp := &spy{}
	second, release := make(chan struct{}), make(chan struct{})
	a := &answerer{name: "alice", hold: func(n int) {
		if n == 2 {
			close(second)
			<-release
		}
	}}
	c := dialAnswering(t, url, "alice-token", false, a, &http.Client{Transport: sp})
	done := make(chan string, 1)
	go func() {
		req := mcp.CallToolRequest{}
		req.Params.Name = "ask"
		res, err := c.CallTool(context.WithoutCancel(t.Context()), req)
		if err != nil {
			done <- "error: " + err.Error()
			return
		}
		done <- resultText(res)
	}()
	select {
	case <-second: // round 1 answered, round 2 being asked
	case <-t.Context().Done():
		t.Fatal("round 2 never reached the client")
	}
	round1, retry1 := sp.get(0), sp.get(1)
	state1, state2 := requestState(t, round1.response), requestState(t, retry1.response)
	if !strings.Contains(retry1.body, state1) {
		t.Fatalf("the retry does not echo round 1's state: %s", retry1.body)
	}
	retry2 := strings.Replace(strings.Replace(retry1.body, state1, state2, 1), "elicitation-1", "elicitation-2", 1)
	retry2 = strings.Replace(retry2, `"by":"alice"`, `"by":"mallory"`, 1)
	tampered := []byte(state2)
	tampered[len(tampered)/2] ^= 1

	for _, tc := range []struct {
		name, token, body, want string
	}{
		{"replayed-round", "alice-token", retry1.body, "round 1 of the call was already answered"},
		{"foreign-client", "mallory-token", retry2, "the requestState was issued to another client"},
		{"tampered", "alice-token", strings.Replace(retry2, state2, string(tampered), 1), "was not issued by this Switchboard endpoint, or was changed on the way"},
		{"wrong-answer-key", "alice-token", strings.Replace(retry2, "elicitation-2", "elicitation-9", 1), `carries no answer to input request \"elicitation-2\"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := replay(t, url, retry1.header, tc.token, tc.body)
			if !strings.Contains(got, tc.want) || !strings.Contains(got, `"isError":true`) {
				t.Errorf("got %s, want a tool error saying %q", got, tc.want)
			}
		})
	}

	close(release)
	text := <-done
	if !strings.Contains(text, `"n":2`) || strings.Contains(text, "mallory") {
		t.Fatalf("result: got %q, want alice's two answers and nobody else's", text)
	}
	// The call has ended: its last retry, sent again, gets its result.
	last := sp.get(2)
	if got := replay(t, url, last.header, "alice-token", last.body); !strings.Contains(got, `\"n\":2`) {
		t.Errorf("retry after the end: got %s, want the call's result", got)
	}
	f.clock.Advance(24 * 60 * 60 * 1e9)
	if got := replay(t, url, last.header, "alice-token", last.body); !strings.Contains(got, "the requestState has expired") {
		t.Errorf("retry a day later: got %s, want it refused as expired", got)
	}
}

// TestCancelledRetryCancelsTheCall: a 2026-07-28 client that gives up on
// its retry cancels the call, as any gateway call.
func TestCancelledRetryCancelsTheCall(t *testing.T) {
	f := newFixture(t)
	sess := f.connect(t, "up", askCaps)
	asked := make(chan struct{})
	sess.OnCall(func(ctx context.Context, tool string, args json.RawMessage, progress func(domain.Progress)) (json.RawMessage, error) {
		if _, err := domain.AskerFrom(ctx).Ask(ctx, elicitReq); err != nil {
			return nil, err
		}
		close(asked)
		<-ctx.Done()
		return nil, ctx.Err()
	})
	_, url := askGateway(t, f)
	c := dialAnswering(t, url+"/mcp/up", "t", false, &answerer{name: "quitter"}, nil)
	ctx, cancel := context.WithCancel(t.Context())
	errc := make(chan error, 1)
	go func() {
		req := mcp.CallToolRequest{}
		req.Params.Name = "ask"
		_, err := c.CallTool(ctx, req)
		errc <- err
	}()
	select {
	case <-asked:
	case <-t.Context().Done():
		t.Fatal("the client was never asked")
	}
	cancel()
	<-errc
	waitFor(t, func() bool { return lastCard(t, f).Status == domain.InvocationCancelled })
}

// TestUnansweredRoundEndsWithTheCall: a 2026-07-28 client that never
// retries leaves the call waiting no longer than the call's own
// deadline; the card tells that the client did not answer.
func TestUnansweredRoundEndsWithTheCall(t *testing.T) {
	f := newFixture(t)
	cfg := domain.ServerConfig{Name: "up", Transport: domain.TransportStdio, Command: "true", ConnectTimeout: time.Minute,
		CallTimeout: 200 * time.Millisecond}
	if err := f.fleet.Attach(t.Context(), []domain.ServerConfig{cfg}); err != nil {
		t.Fatal(err)
	}
	sess := domaintest.NewSession(askCaps)
	f.conn.Next(t).Succeed(sess)
	waitFor(t, func() bool { st, err := f.fleet.Status("up"); return err == nil && st.State == domain.StateConnected })
	f.gateway.Refresh()
	sess.OnCall(func(ctx context.Context, _ string, _ json.RawMessage, _ func(domain.Progress)) (json.RawMessage, error) {
		_, err := domain.AskerFrom(ctx).Ask(ctx, elicitReq)
		return nil, err
	})
	_, url := askGateway(t, f)
	// The client is asked and never answers: its answer waits for the
	// test's end.
	stuck := make(chan struct{})
	defer close(stuck)
	c := dialAnswering(t, url+"/mcp/up", "t", false, &answerer{name: "gone", hold: func(int) { <-stuck }}, nil)
	req := mcp.CallToolRequest{}
	req.Params.Name = "ask"
	go func() { _, _ = c.CallTool(t.Context(), req) }()
	waitFor(t, func() bool {
		invs, err := f.inv.List(t.Context(), scope, domain.InvocationFilter{Tool: "ask"})
		return err == nil && len(invs) == 1 && invs[0].Status.Final()
	})
	card := lastCard(t, f)
	if card.Status != domain.InvocationError || len(card.Asks) != 1 || card.Asks[0].Outcome != domain.AskFailed ||
		!strings.Contains(card.Asks[0].Detail, `the calling client "gone 1" did not answer in time`) {
		t.Errorf("card: status %s, asks %+v; want an error whose ask the client did not answer in time", card.Status, card.Asks)
	}
}

// TestRevokedTokenEndsItsHeldCalls: a 2026-07-28 client being asked holds
// its call between rounds; revoking its token ends the call at once
// rather than at the call's deadline, since that client can never resume
// it.
func TestRevokedTokenEndsItsHeldCalls(t *testing.T) {
	f := newFixture(t)
	sess := f.connect(t, "up", askCaps)
	sess.OnCall(func(ctx context.Context, _ string, _ json.RawMessage, _ func(domain.Progress)) (json.RawMessage, error) {
		_, err := domain.AskerFrom(ctx).Ask(ctx, elicitReq)
		return nil, err
	})
	gw, url := askGateway(t, f)
	asked, stuck := make(chan struct{}), make(chan struct{})
	defer close(stuck)
	c := dialAnswering(t, url+"/mcp/up", "revoked", false, &answerer{name: "gone", hold: func(int) {
		close(asked)
		<-stuck
	}}, nil)
	req := mcp.CallToolRequest{}
	req.Params.Name = "ask"
	go func() { _, _ = c.CallTool(t.Context(), req) }()
	select {
	case <-asked:
	case <-t.Context().Done():
		t.Fatal("the client was never asked")
	}
	gw.CloseToken("revoked")
	waitFor(t, func() bool {
		invs, err := f.inv.List(t.Context(), scope, domain.InvocationFilter{Tool: "ask"})
		return err == nil && len(invs) == 1 && invs[0].Status == domain.InvocationCancelled
	})
}
