package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

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
