package mcpserver_test

import (
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
)

// A call held for approval keeps a client that gave a progress token
// informed, and once the hold limit passes the client is answered that
// the call waits in Switchboard, rather than left hanging until a person
// decides.
func TestHeldCallKeepsTheClientInformed(t *testing.T) {
	f := newFixtureWith(t, func(o *domain.InvocationsOptions) {
		o.Policies = domain.NewPolicies(domaintest.NewPolicyStore())
		o.ApprovalTimeout = 300 * time.Millisecond
	})
	destructive := true
	caps := domain.Capabilities{Tools: []domain.Tool{{Name: "wipe",
		Annotations: domain.Annotations{DestructiveHint: &destructive},
		Raw:         []byte(`{"name":"wipe","inputSchema":{"type":"object"},"annotations":{"destructiveHint":true}}`)}}}
	f.connect(t, "alpha", caps).OnCall(echoing("alpha"))
	c := f.dial(t, "/mcp", true, transport.WithContinuousListening())
	got := make(chan mcp.JSONRPCNotification, 8)
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == string(mcp.MethodNotificationProgress) {
			select {
			case got <- n:
			default:
			}
		}
	})
	req := mcp.CallToolRequest{}
	req.Params.Name = "alpha__wipe"
	req.Params.Meta = &mcp.Meta{ProgressToken: "tok-held"}
	res, err := c.CallTool(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError || len(res.Content) == 0 {
		t.Fatalf("got %+v, want a tool error saying the call awaits approval", res)
	}
	if text, _ := res.Content[0].(mcp.TextContent); !strings.Contains(text.Text, "approv") {
		t.Errorf("tool error %q does not say the call awaits approval", text.Text)
	}
	select {
	case n := <-got:
		if msg, _ := n.Params.AdditionalFields["message"].(string); !strings.Contains(msg, "waiting for approval") {
			t.Errorf("progress message %q, want it to say the call waits for approval", msg)
		}
	case <-time.After(patience):
		t.Error("no progress reached the client while its call was held")
	}
}
