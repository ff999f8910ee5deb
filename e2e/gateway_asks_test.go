//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	playwright "github.com/mxschmitt/playwright-go"
)

// elicitTool is server-everything's tool that asks its client for input
// (elicitation/create) and answers with what it was given. The server
// lists it only to a client that declared elicitation, which Switchboard
// does upstream on behalf of the clients behind it.
const elicitTool = "trigger-elicitation-request"

// elicitAnswer is what the test's clients answer every elicitation with:
// valid for the server's form (name is its one required field).
var elicitAnswer = map[string]any{"action": "accept", "content": map[string]any{"name": "Ada Lovelace", "check": true}}

// askedInvocation is the part of the API's invocation the asks test reads.
type askedInvocation struct {
	ID     string `json:"id"`
	Tool   string `json:"tool"`
	Status string `json:"status"`
	Client *struct {
		Name string `json:"name"`
	} `json:"client"`
	Asks []struct {
		Method  string `json:"method"`
		At      int64  `json:"at"`
		Outcome string `json:"outcome"`
		Detail  string `json:"detail"`
	} `json:"asks"`
}

// TestGatewayAsksTheCallingClient: server-everything's elicitation tool,
// called through /mcp by the official TypeScript SDK clients. A v1 client
// that declares elicitation is asked on its session and the tool answers
// with the client's own answer; a v2 client pinned to 2026-07-28 is asked
// through an input_required result, which its SDK answers and retries by
// itself; a client without the capability leaves the question to the
// person, who answers it in Switchboard. Each call's card shows the ask and how it
// ended, live, axe-clean in light and dark and in every style preset.
func TestGatewayAsksTheCallingClient(t *testing.T) {
	in := startWith(t, servers{"everything": everythingStdio(t)})
	in.waitState(t, "everything", "connected")
	invs := followInvocations(t, in)
	pages := map[string]playwright.Page{}
	for _, scheme := range []*playwright.ColorScheme{playwright.ColorSchemeLight, playwright.ColorSchemeDark} {
		pages[string(*scheme)] = openCards(t, in, playwright.BrowserNewContextOptions{ColorScheme: scheme})
	}
	call := []gatewayCall{{Name: "everything__" + elicitTool}}
	var cards []string

	for _, tc := range []struct {
		name, script, client, era string
		answers                   bool
	}{
		{"v1-declares", "v1.mjs", "gateway-e2e-v1", "", true},
		{"v2-declares", "v2.mjs", "gateway-e2e-v2", "2026-07-28", true},
		{"v1-lacks", "v1.mjs", "gateway-e2e-v1", "", false},
		{"v2-lacks", "v2.mjs", "gateway-e2e-v2", "2026-07-28", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := gatewaySpec{URL: in.URL + "/mcp", Token: in.Token, Calls: call}
			if tc.answers {
				spec.Elicitation = elicitAnswer
			}
			mark := invs.len()
			if !tc.answers {
				// A client without the capability leaves the question to
				// the person, who declines it here through the
				// elicitation API.
				answerEach(t, in, `{"action":"decline"}`)
			}
			got, err := runGatewayClient(tc.script, spec)
			if err != nil {
				t.Fatal(err)
			}
			if tc.era != "" && got.ProtocolVersion != tc.era {
				t.Errorf("protocol: got %q, want %s", got.ProtocolVersion, tc.era)
			}
			answer := got.Calls[0]
			if tc.answers {
				if answer.Error != nil || !strings.Contains(string(answer.Result), "Name: Ada Lovelace") || isToolError(answer.Result) {
					t.Errorf("the tool's answer: got %s %+v, want it to carry the client's own answer", clip(answer.Result), answer.Error)
				}
				if len(got.Elicited) != 1 || !strings.Contains(string(got.Elicited[0]), "requestedSchema") {
					t.Errorf("the client was asked %d times (%s), want once, with the server's form", len(got.Elicited), got.Elicited)
				}
			} else {
				text := string(answer.Result)
				if answer.Error != nil {
					text = answer.Error.Message
				}
				if !strings.Contains(text, "User declined") {
					t.Errorf("the tool's answer: got %s, want the person's decline", clip([]byte(text)))
				}
				if len(got.Elicited) != 0 {
					t.Errorf("a client without the capability was asked %d times", len(got.Elicited))
				}
			}

			id := invs.firstAfter(t, mark, "the gateway's "+elicitTool+" call", func(v invocation) bool {
				return v.Tool == elicitTool && !slices.Contains(cards, v.ID) // a late event of an earlier call is not this one
			}).ID
			cards = append(cards, id)
			invs.waitFinal(t, id)
			var inv askedInvocation
			apiGet(t, in, "/api/v1/invocations/"+url.PathEscape(id), &inv)
			wantOutcome := "answered"
			if !tc.answers {
				wantOutcome = "answered_by_person"
			}
			if len(inv.Asks) != 1 || inv.Asks[0].Method != "elicitation/create" || inv.Asks[0].Outcome != wantOutcome || inv.Asks[0].At == 0 {
				t.Fatalf("asks in the API: got %+v, want one elicitation/create, %s", inv.Asks, wantOutcome)
			}
			if inv.Client == nil || inv.Client.Name != tc.client {
				t.Errorf("client: got %+v, want %s", inv.Client, tc.client)
			}

			want := "Asked for input"
			outcome := "answered by the client"
			if !tc.answers {
				outcome = "answered by you, in Switchboard"
			}
			for scheme, page := range pages {
				ask := feedCard(id) + fmt.Sprintf(` [data-testid="invocation-asks"] [data-testid="invocation-ask"][data-method="elicit"][data-outcome=%q]`, wantOutcome)
				waitVisible(t, page, ask, scheme+": the card's ask")
				if got := text(t, page, ask+` [data-testid="invocation-ask-what"]`); got != want {
					t.Errorf("%s: what: got %q, want %q", scheme, got, want)
				}
				if got := text(t, page, ask+` [data-testid="invocation-ask-outcome"]`); got != outcome {
					t.Errorf("%s: outcome: got %q, want %q", scheme, got, outcome)
				}
				checkAxe(t, page, scheme+": a card with an ask ("+tc.name+")")
			}
		})
	}

	// The cards with their asks, in every style preset and scheme: the
	// presets are CSS keyed on <html>'s attributes, so one page is
	// restyled in place rather than reloaded per preset (the header's
	// preference form is tested by TestPresetsAccessible).
	page := pages["light"]
	for _, id := range cards {
		waitVisible(t, page, feedCard(id)+` [data-testid="invocation-ask"]`, "the ask on card "+id)
	}
	for _, preset := range presets {
		for _, theme := range []string{"light", "dark"} {
			if _, err := page.Evaluate(`([p, th]) => { document.documentElement.dataset.preset = p; document.documentElement.dataset.theme = th; }`, []any{preset, theme}); err != nil {
				t.Fatal(err)
			}
			checkAxe(t, page, "cards with asks in "+preset+"/"+theme)
		}
	}
}

// isToolError reports whether a CallToolResult says isError.
func isToolError(raw json.RawMessage) bool {
	var r struct {
		IsError bool `json:"isError"`
	}
	return json.Unmarshal(raw, &r) == nil && r.IsError
}
