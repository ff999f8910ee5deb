package mcpclient_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
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
