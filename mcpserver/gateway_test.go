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
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
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

func TestProgressReachesTheClient(t *testing.T) {
	f := newFixture(t)
	// The tool holds its answer until the client has seen its progress, so
	// the notification never races the result for the call's stream.
	release := make(chan struct{})
	f.connect(t, "alpha", echoCaps("alpha")).OnCall(func(ctx context.Context, tool string, args json.RawMessage, progress func(domain.Progress)) (json.RawMessage, error) {
		if progress != nil {
			progress(domain.Progress{Progress: 1, Total: 2, Message: "half"})
		}
		select {
		case <-release:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return echoing("alpha")(ctx, tool, args, nil)
	})
	c := f.dial(t, "/mcp", true, transport.WithContinuousListening())
	got := make(chan mcp.JSONRPCNotification, 8)
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == string(mcp.MethodNotificationProgress) {
			got <- n
		}
	})
	req := mcp.CallToolRequest{}
	req.Params.Name = "alpha__echo"
	req.Params.Meta = &mcp.Meta{ProgressToken: "tok-1"}
	callErr := make(chan error, 1)
	go func() {
		_, err := c.CallTool(t.Context(), req)
		callErr <- err
	}()
	select {
	case n := <-got:
		if tok := n.Params.AdditionalFields["progressToken"]; tok != "tok-1" {
			t.Errorf("progress token: got %v, want tok-1", tok)
		}
	case <-time.After(patience):
		t.Error("no progress notification reached the client")
	}
	close(release)
	if err := <-callErr; err != nil {
		t.Fatal(err)
	}
}

func TestDisconnectedServerAnswersToolError(t *testing.T) {
	f := newFixture(t)
	f.connect(t, "alpha", echoCaps("alpha"))
	c := f.dial(t, "/mcp", true)
	if _, err := f.fleet.Restart(t.Context(), "alpha"); err != nil {
		t.Fatal(err)
	}
	f.conn.Next(t) // left unanswered: the server stays connecting
	f.gateway.Refresh()
	// Restarting after having been connected keeps the tools listed.
	if got := toolNames(t, c); !slices.Contains(got, "alpha__echo") {
		t.Fatalf("tools while reconnecting: got %v", got)
	}
	// The call waits for the server up to its start limit: armed beside
	// the supervisor's own limit of the attempt in flight.
	type outcome struct {
		text  string
		isErr bool
	}
	out := make(chan outcome, 1)
	go func() {
		text, isErr, err := callTextAsync(c, "alpha__echo", nil)
		if err != nil {
			text = err.Error()
		}
		out <- outcome{text, isErr}
	}()
	waitFor(t, func() bool {
		n := 0
		for _, d := range f.fleetClock.Timers() {
			if d == domain.DefaultStartTimeout {
				n++
			}
		}
		return n == 2
	})
	f.fleetClock.Advance(domain.DefaultStartTimeout)
	o := <-out
	if !o.isErr || !strings.Contains(o.text, `"alpha"`) || !strings.Contains(o.text, "connecting") || !strings.Contains(o.text, "try again") {
		t.Errorf("got %q isError=%v, want a tool error naming alpha, connecting and try again", o.text, o.isErr)
	}
}

func TestCallToReconnectingServerRunsOnceConnected(t *testing.T) {
	f := newFixture(t)
	f.connect(t, "alpha", echoCaps("alpha"))
	c := f.dial(t, "/mcp", true)
	if _, err := f.fleet.Restart(t.Context(), "alpha"); err != nil {
		t.Fatal(err)
	}
	attempt := f.conn.Next(t)
	f.gateway.Refresh()
	out := make(chan string, 1)
	go func() {
		text, _, err := callTextAsync(c, "alpha__echo", map[string]any{"message": "hi"})
		if err != nil {
			text = err.Error()
		}
		out <- text
	}()
	waitFor(t, func() bool {
		n := 0
		for _, d := range f.fleetClock.Timers() {
			if d == domain.DefaultStartTimeout {
				n++
			}
		}
		return n == 2
	})
	sess := domaintest.NewSession(echoCaps("alpha"))
	sess.OnCall(echoing("alpha"))
	attempt.Succeed(sess)
	if got := <-out; !strings.Contains(got, "alpha:echo:hi") {
		t.Errorf("got %q, want the reconnected server's answer", got)
	}
}

func TestModernCancelDoesNotReachOtherClients(t *testing.T) {
	f := newFixture(t)
	f.connect(t, "alpha", echoCaps("alpha"))
	body := `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`
	res, err := http.Post(f.srv.URL+"/mcp", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusAccepted {
		t.Errorf("got %d, want 202", res.StatusCode)
	}
}

// TestClientCancelEndsTheCall: a legacy client's notifications/cancelled,
// or a 2026-07-28 client dropping its request, ends the handler's context,
// which cancels the invocation.
func TestClientCancelEndsTheCall(t *testing.T) {
	for _, era := range []struct {
		name   string
		legacy bool
	}{{"legacy", true}, {"2026-07-28", false}} {
		t.Run(era.name, func(t *testing.T) {
			f := newFixture(t)
			started := make(chan struct{})
			f.connect(t, "alpha", echoCaps("alpha")).OnCall(func(ctx context.Context, tool string, args json.RawMessage, progress func(domain.Progress)) (json.RawMessage, error) {
				close(started)
				<-ctx.Done()
				return nil, ctx.Err()
			})
			c := f.dial(t, "/mcp", era.legacy)
			ctx, cancel := context.WithCancel(t.Context())
			errc := make(chan error, 1)
			go func() {
				req := mcp.CallToolRequest{}
				req.Params.Name = "alpha__echo"
				_, err := c.CallTool(ctx, req)
				errc <- err
			}()
			<-started
			cancel()
			if err := <-errc; err == nil {
				t.Fatal("cancelled call: got a result, want an error")
			}
			waitFor(t, func() bool {
				invs, err := f.inv.List(t.Context(), scope, domain.InvocationFilter{})
				return err == nil && len(invs) == 1 && invs[0].Status == domain.InvocationCancelled
			})
		})
	}
}

// callTextAsync is callText for a goroutine: it reports a failed request
// instead of ending the test.
func callTextAsync(c *client.Client, name string, args map[string]any) (string, bool, error) {
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = name, args
	res, err := c.CallTool(context.Background(), req)
	if err != nil {
		return "", false, err
	}
	var b strings.Builder
	for _, ct := range res.Content {
		if tc, ok := ct.(mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError, nil
}
