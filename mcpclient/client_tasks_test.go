package mcpclient_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/mcpclient"
)

// server-everything offers its async elicitation and sampling tools once
// Switchboard declares tasks, and they run: the elicitation becomes a task
// the server polls and whose result is the caller's answer, given without
// the task; a sampling request the caller could not put to anyone ends the
// task failed with the reason instead of leaving the server waiting; and a
// call with nobody to ask is refused at once.
//
// Over streamable HTTP the task is answered at once on the server's
// request and its result later, on another request, both POSTed by
// Switchboard itself (answerPoster).
func TestEverythingClientTasks(t *testing.T) {
	t.Parallel()
	t.Run("stdio", func(t *testing.T) {
		t.Parallel()
		everythingClientTasks(t, everythingStdio(t))
	})
	t.Run("http", func(t *testing.T) {
		t.Parallel()
		_, url := startEverythingHTTP(t)
		everythingClientTasks(t, remote(domain.TransportHTTP, url))
	})
}

func everythingClientTasks(t *testing.T, cfg domain.ServerConfig) {
	s := connect(t, mcpclient.New(mcpclient.Options{}), cfg, nil)
	ctx := connectCtx(t)
	caps := loadAll(t, s)
	var names []string
	for _, tool := range caps.Tools {
		names = append(names, tool.Name)
	}
	all := strings.Join(names, " ")
	for _, want := range []string{"trigger-elicitation-request-async", "trigger-sampling-request-async"} {
		if !strings.Contains(all, want) {
			t.Errorf("tools %s, want %s", all, want)
		}
	}
	if len(caps.Tools) != everythingTools {
		t.Errorf("%d tools listed (%s), want %d as the Inspector sees", len(caps.Tools), all, everythingTools)
	}

	var mu sync.Mutex
	var params json.RawMessage
	out := callWith(t, ctx, s, askFunc(func(_ context.Context, req domain.ServerRequest) (json.RawMessage, error) {
		mu.Lock()
		defer mu.Unlock()
		if req.Method != domain.MethodElicit {
			// server-everything also asks for roots during the call.
			return nil, fmt.Errorf("%w: not this test's question", domain.ErrNotAsked)
		}
		params = req.Params
		return json.RawMessage(`{"action":"accept","content":{"name":"Ada"}}`), nil
	}), "trigger-elicitation-request-async", `{}`)
	if out.isError || !strings.Contains(out.text, "[COMPLETED]") || !strings.Contains(out.text, "Name: Ada") || !strings.Contains(out.text, "Task created:") {
		t.Errorf("trigger-elicitation-request-async result %+v, want the caller's answer through a task", out)
	}
	mu.Lock()
	if strings.Contains(string(params), `"task"`) || !strings.Contains(string(params), `"requestedSchema"`) {
		t.Errorf("the caller was asked %s, want the elicitation without its task", params)
	}
	mu.Unlock()

	out = callWith(t, ctx, s, askFunc(func(context.Context, domain.ServerRequest) (json.RawMessage, error) {
		return nil, fmt.Errorf("%w: the client declared no sampling", domain.ErrNotAsked)
	}), "trigger-sampling-request-async", `{"prompt":"Say hi"}`)
	if !strings.Contains(out.text, "[FAILED]") || !strings.Contains(out.text, "the client declared no sampling") {
		t.Errorf("trigger-sampling-request-async result %+v, want the task failed with the reason", out)
	}

	res, err := s.CallTool(ctx, "trigger-sampling-request-async", json.RawMessage(`{"prompt":"Say hi"}`), nil)
	if err != nil {
		t.Fatalf("CallTool without an asker: %v", err)
	}
	if out := outcomeOf(t, res); !out.isError || !strings.Contains(out.text, "without anyone to answer") {
		t.Errorf("trigger-sampling-request-async without an asker = %+v, want refused with the reason", out)
	}
}
