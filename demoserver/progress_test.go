package demoserver_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

func TestLongTaskSendsProgress(t *testing.T) {
	tests := []struct {
		name         string
		token        mcp.ProgressToken
		steps        int
		wantProgress int
	}{
		{"string-token-gets-one-notification-per-step", "task-1", 3, 3},
		{"number-token-works-too", 7, 2, 2},
		{"no-token-no-notifications", nil, 2, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newClient(t)
			// OnNotification runs on the client's read loop, so hand each
			// notification off to a buffered channel and never block.
			notes := make(chan mcp.JSONRPCNotification, 64)
			c.OnNotification(func(n mcp.JSONRPCNotification) {
				if n.Method == string(mcp.MethodNotificationProgress) {
					notes <- n
				}
			})
			ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
			defer cancel()
			req := mcp.CallToolRequest{}
			req.Params.Name = "long_task"
			req.Params.Arguments = map[string]any{"steps": tt.steps, "stepMillis": 1}
			if tt.token != nil {
				req.Params.Meta = &mcp.Meta{ProgressToken: tt.token}
			}
			res, err := c.CallTool(ctx, req)
			if err != nil {
				t.Fatalf("CallTool: %v", err)
			}
			text := onlyContent[mcp.TextContent](t, res)
			if want := fmt.Sprintf("finished %d steps", tt.steps); !strings.Contains(text.Text, want) {
				t.Errorf("summary: got %q, want it to contain %q", text.Text, want)
			}

			for i := 1; i <= tt.wantProgress; i++ {
				var n mcp.JSONRPCNotification
				select {
				case n = <-notes:
				case <-ctx.Done():
					t.Fatalf("progress %d: got none before timeout, want %d notifications", i, tt.wantProgress)
				}
				f := n.Params.AdditionalFields
				if got, want := fmt.Sprint(f["progressToken"]), fmt.Sprint(tt.token); got != want {
					t.Errorf("progress %d token: got %s, want %s", i, got, want)
				}
				if got, want := fmt.Sprint(f["progress"]), fmt.Sprint(i); got != want {
					t.Errorf("progress %d: got %s, want %s", i, got, want)
				}
				if got, want := fmt.Sprint(f["total"]), fmt.Sprint(tt.steps); got != want {
					t.Errorf("progress %d total: got %s, want %s", i, got, want)
				}
				if got, want := f["message"], fmt.Sprintf("finished step %d of %d", i, tt.steps); got != want {
					t.Errorf("progress %d message: got %v, want %q", i, got, want)
				}
			}
			select {
			case n := <-notes:
				t.Errorf("extra notification: got %+v, want none", n)
			default:
			}
		})
	}
}

func TestLongTaskStopsWhenCancelled(t *testing.T) {
	c := newClient(t)
	// Steps of ten seconds each: only honouring cancellation lets the call
	// return within the test's deadline.
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name = "long_task"
	req.Params.Arguments = map[string]any{"steps": 3, "stepMillis": 10_000}
	start := time.Now()
	res, err := c.CallTool(ctx, req)
	if err == nil && !res.IsError {
		t.Fatalf("CallTool: got success %+v, want the call to end with cancellation", res)
	}
	if elapsed := time.Since(start); elapsed > 5*time.Second {
		t.Errorf("elapsed: got %s, want the call to stop soon after its context ended", elapsed)
	}
}
