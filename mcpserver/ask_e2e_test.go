package mcpserver_test

import (
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
)

// TestDemoServerAsksReachTheCallingClient runs the whole path: the demo
// server's tools send elicitation, sampling and roots/list to their
// client, mcpclient passes each to the Asker of the call, and the gateway
// puts it to the AI client that made the call, in both eras; a client
// without the capability is not asked and the server hears why.
func TestDemoServerAsksReachTheCallingClient(t *testing.T) {
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			s := newStack(t)
			url := s.srv.URL + "/mcp/demo"
			a := &answerer{name: "claude"}
			c := dialAnswering(t, url, "", era.legacy, a, nil)
			for _, tc := range []struct {
				tool string
				args map[string]any
				want []string
			}{
				{"confirm_action", map[string]any{"action": "ship it"}, []string{`"action":"accept"`, `"by":"claude"`}},
				{"ask_model", map[string]any{"question": "hello?"}, []string{`"model":"model-of-claude"`, `hi from claude`}},
				{"list_roots", nil, []string{`"uri":"file:///work/claude"`}},
			} {
				text, isErr := callText(t, c, tc.tool, tc.args)
				for _, want := range tc.want {
					if isErr || !strings.Contains(text, want) {
						t.Errorf("%s: got %q (error %v), want it to contain %s", tc.tool, text, isErr, want)
					}
				}
			}
			a.mu.Lock()
			if len(a.elicits) != 1 || a.elicits[0].Message != "Go ahead and ship it?" || a.samples != 1 || a.roots != 1 {
				t.Errorf("client was asked: %+v, %d samples, %d roots; want each once, as the server asked", a.elicits, a.samples, a.roots)
			}
			a.mu.Unlock()

			plain := dialAnswering(t, url, "", era.legacy, nil, nil)
			text, _ := callText(t, plain, "confirm_action", nil)
			if !strings.Contains(text, `the calling client "plain 1" did not declare elicitation`) {
				t.Errorf("without elicitation: got %q, want the server told why nobody was asked", text)
			}
			invs, err := s.inv.List(t.Context(), scope, domain.InvocationFilter{Tool: "confirm_action"})
			if err != nil || len(invs) != 2 {
				t.Fatalf("cards: %v, %v", invs, err)
			}
			if got := invs[0].Asks; len(got) != 1 || got[0].Outcome != domain.AskNotAsked {
				t.Errorf("card of the plain client's call: asks %+v, want one not asked", got)
			}
			if got := invs[1].Asks; len(got) != 1 || got[0].Outcome != domain.AskAnswered {
				t.Errorf("card of claude's call: asks %+v, want one answered", got)
			}
		})
	}
}
