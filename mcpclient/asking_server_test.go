package mcpclient_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/mcpclient"
)

// The asking server sends, during every tools/call, one elicitation
// request whose params are written by hand the way no Go encoder writes
// them (keys out of order, an integer beyond a float64, 1.0), and answers
// the call with the result of the response it got, verbatim, as text. It
// speaks stdio (runAsking) or streamable HTTP with the request on the
// call's own event stream (startAskingHTTP).

const (
	askingParams = `{"zeta":"written last, sent first","message":"Pick a number","requestedSchema":{"type":"object","properties":{"n":{"type":"integer","maximum":12345678901234567890}}},"_meta":{"weight":1.0}}`
	askingAnswer = `{"action":"accept","content":{"n":12345678901234567890},"_meta":{"weight":1.0}}`
)

// askingRequest is the elicitation request itself.
const askingRequest = `{"jsonrpc":"2.0","id":"ask-1","method":"elicitation/create","params":` + askingParams + `}`

// askingResult is the tools/call result reporting answer.
func askingResult(id, answer json.RawMessage) []byte {
	text, _ := json.Marshal(string(answer))
	return []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":%s}]}}`, id, text))
}

// askedAnswer is the result of the response to ask-1 in line, if it is one.
func askedAnswer(line []byte) (json.RawMessage, bool) {
	var msg struct {
		ID     string          `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if json.Unmarshal(line, &msg) != nil || msg.ID != "ask-1" {
		return nil, false
	}
	if msg.Result == nil {
		return msg.Error, true
	}
	return msg.Result, true
}

func runAsking(context.Context) error {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 0, 64<<10), 16<<20)
	var callID json.RawMessage
	for in.Scan() {
		line := in.Bytes()
		if answer, ok := askedAnswer(line); ok {
			if _, err := os.Stdout.Write(append(askingResult(callID, answer), '\n')); err != nil {
				return err
			}
			continue
		}
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(line, &msg) == nil && msg.Method == "tools/call" {
			callID = msg.ID
			if _, err := os.Stdout.Write([]byte(askingRequest + "\n")); err != nil {
				return err
			}
			continue
		}
		if out := cannedAnswer(line); out != nil {
			if _, err := os.Stdout.Write(append(out, '\n')); err != nil {
				return err
			}
		}
	}
	return in.Err()
}

// startAskingHTTP serves the asking server over streamable HTTP: a
// tools/call is answered with an event stream whose first event, its
// data split over two lines, is the request; the answer must come as a
// POST of its own.
func startAskingHTTP(t *testing.T) domain.ServerConfig {
	t.Helper()
	answers := make(chan json.RawMessage, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		if answer, ok := askedAnswer(body); ok {
			answers <- answer
			w.WriteHeader(http.StatusAccepted)
			return
		}
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(body, &msg) != nil || msg.Method != "tools/call" {
			out := cannedAnswer(body)
			if out == nil {
				w.WriteHeader(http.StatusAccepted)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(out)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		split := strings.Index(askingRequest, `"params"`)
		fmt.Fprintf(w, "event: message\ndata: %s\ndata: %s\n\n", askingRequest[:split], askingRequest[split:])
		w.(http.Flusher).Flush()
		select {
		case answer := <-answers:
			fmt.Fprintf(w, "event: message\ndata: %s\n\n", askingResult(msg.ID, answer))
		case <-r.Context().Done():
		case <-time.After(eventTimeout):
		}
	}))
	t.Cleanup(srv.Close)
	return domain.ServerConfig{Name: "asking", Transport: domain.TransportHTTP, URL: srv.URL + "/mcp"}
}

// A request's params reach the Asker byte for byte as the server sent
// them, and the Asker's answer reaches the server byte for byte.
func TestServerRequestParamsAndAnswersPassUntouched(t *testing.T) {
	t.Parallel()
	stdio := domain.ServerConfig{Name: "asking", Transport: domain.TransportStdio, Command: os.Args[0],
		Env: map[string]string{serverModeEnv: "asking"}}
	for name, cfg := range map[string]func(*testing.T) domain.ServerConfig{
		"stdio": func(*testing.T) domain.ServerConfig { return stdio },
		"http":  startAskingHTTP,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := connect(t, mcpclient.New(mcpclient.Options{}), cfg(t), nil)
			var got domain.ServerRequest
			out := callWith(t, connectCtx(t), s, askFunc(func(_ context.Context, req domain.ServerRequest) (json.RawMessage, error) {
				got = req
				return json.RawMessage(askingAnswer), nil
			}), "rich", `{}`)
			if string(got.Params) != askingParams || got.Method != domain.MethodElicit || got.Server != "asking" {
				t.Errorf("asked %s %s with params\n%s\nwant them as sent:\n%s", got.Server, got.Method, got.Params, askingParams)
			}
			if out.text != askingAnswer {
				t.Errorf("the server got the answer\n%s\nwant it as given:\n%s", out.text, askingAnswer)
			}
		})
	}
}
