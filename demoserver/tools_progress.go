package demoserver

import (
	"context"
	"fmt"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Limits on long_task's arguments keep a careless call from tying up a worker
// for hours.
const (
	maxSteps      = 100
	maxStepMillis = 10_000
)

// addProgressTools registers long_task, the tool that exercises progress
// notifications and cancellation.
func (d *demo) addProgressTools(s *server.MCPServer) {
	s.AddTool(newTool("long_task", "Long task",
		"Works through a number of timed steps, sending a progress notification after each one when the request carries a progress token. Stops early when the call is cancelled.",
		readOnlyLocal,
		mcp.WithInteger("steps", mcp.DefaultNumber(5), mcp.Min(1), mcp.Max(maxSteps), mcp.Description("Number of steps.")),
		mcp.WithInteger("stepMillis", mcp.DefaultNumber(500), mcp.Min(0), mcp.Max(maxStepMillis), mcp.Description("Duration of each step in milliseconds."))),
		longTask)
}

// longTask waits steps*stepMillis, reporting progress after every step, and
// returns as soon as ctx ends so cancellation is visible to the client.
func longTask(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	steps := req.GetInt("steps", 5)
	stepMillis := req.GetInt("stepMillis", 500)
	if steps < 1 || steps > maxSteps {
		return mcp.NewToolResultErrorf("steps must be between 1 and %d, got %d", maxSteps, steps), nil
	}
	if stepMillis < 0 || stepMillis > maxStepMillis {
		return mcp.NewToolResultErrorf("stepMillis must be between 0 and %d, got %d", maxStepMillis, stepMillis), nil
	}
	var token mcp.ProgressToken
	if meta := req.Params.Meta; meta != nil {
		token = meta.ProgressToken
	}
	srv := server.ServerFromContext(ctx)
	step := time.Duration(stepMillis) * time.Millisecond
	timer := time.NewTimer(step)
	defer timer.Stop()
	undelivered := 0
	for i := 1; i <= steps; i++ {
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("long_task cancelled after %d of %d steps: %w", i-1, steps, ctx.Err())
		case <-timer.C:
			timer.Reset(step)
		}
		if token == nil || srv == nil {
			continue
		}
		err := srv.SendNotificationToClient(ctx, string(mcp.MethodNotificationProgress), map[string]any{
			"progressToken": token,
			"progress":      i,
			"total":         steps,
			"message":       fmt.Sprintf("finished step %d of %d", i, steps),
		})
		// Progress is advisory: a client too slow to drain its notifications
		// should still get the result, so a failed send is only counted.
		if err != nil {
			undelivered++
		}
	}
	if token != nil && srv != nil {
		lingerAfterProgress(ctx)
	}
	summary := fmt.Sprintf("long_task finished %d steps of %d ms each (%s in total).", steps, stepMillis, time.Duration(steps)*step)
	if undelivered > 0 {
		summary += fmt.Sprintf(" %d progress notifications could not be delivered.", undelivered)
	}
	return mcp.NewToolResultText(summary), nil
}

// progressLinger is how long long_task waits after its last progress
// notification before returning its result.
const progressLinger = 5 * time.Millisecond

// lingerAfterProgress gives the transport time to write the final progress
// notification before the result. mcp-go v1.2.1's streamable HTTP server
// drops a notification whose forwarder goroutine has dequeued it but not yet
// taken the response lock when the handler returns, which otherwise loses the
// last update of most fast tasks. Nothing observable marks the write as done,
// so a short pause is the only mitigation available to a handler. Other
// transports deliver in order and skip the pause.
func lingerAfterProgress(ctx context.Context) {
	if _, ok := server.ClientSessionFromContext(ctx).(server.SessionWithStreamableHTTPConfig); !ok {
		return
	}
	t := time.NewTimer(progressLinger)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}
