package mcpclient_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/mcpclient"
)

// A server that asks during a resources/read, on that read's own response
// stream, while one tool call runs on the same connection: the request
// belongs to the read, which has nobody to ask, never to the caller of
// the call that happens to be running.
func TestServerRequestDuringAReadReachesNoCaller(t *testing.T) {
	t.Parallel()
	up := server.NewMCPServer("reader", "1", server.WithResourceCapabilities(false, false), server.WithToolCapabilities(false))
	started, release := make(chan struct{}), make(chan struct{})
	up.AddTool(mcp.NewTool("wait"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		close(started)
		<-release
		return mcp.NewToolResultText("done"), nil
	})
	up.AddResource(mcp.NewResource("ask://me", "me"), func(ctx context.Context, _ mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		text := "answered"
		_, err := server.ServerFromContext(ctx).RequestElicitation(ctx, mcp.ElicitationRequest{Params: mcp.ElicitationParams{
			Message: "who?", RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{}}}})
		if err != nil {
			text = "refused: " + err.Error()
		}
		return []mcp.ResourceContents{mcp.TextResourceContents{URI: "ask://me", Text: text}}, nil
	})
	hs := httptest.NewServer(server.NewStreamableHTTPServer(up))
	t.Cleanup(hs.Close)
	s := connect(t, mcpclient.New(mcpclient.Options{ProtocolVersion: mcp.ProtocolVersion20251125}), remote(domain.TransportHTTP, hs.URL+"/mcp"), nil)
	ctx := connectCtx(t)

	done := make(chan toolOutcome, 1)
	go func() { done <- callWith(t, ctx, s, neverAsked(t, "the running call's caller"), "wait", `{}`) }()
	select {
	case <-started:
	case <-ctx.Done():
		t.Fatal("the call never started")
	}
	raw, err := s.ReadResource(ctx, "ask://me")
	close(release)
	if err != nil {
		t.Fatal(err)
	}
	var read struct {
		Contents []struct {
			Text string `json:"text"`
		} `json:"contents"`
	}
	if err := json.Unmarshal(raw, &read); err != nil || len(read.Contents) != 1 {
		t.Fatalf("read %s: %v", raw, err)
	}
	if got := read.Contents[0].Text; !strings.Contains(got, "not a tool call") {
		t.Errorf("read: %q, want the elicitation refused as asked during a read", got)
	}
	if out := <-done; out.isError || out.text != "done" {
		t.Errorf("the call: %+v", out)
	}
}
