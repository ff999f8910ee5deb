//go:build e2e

package e2e

import (
	"fmt"
	"net/http"
	"testing"

	playwright "github.com/mxschmitt/playwright-go"
)

// cardsOfEveryStatus makes calls that leave cards in success (with every
// content type), error, cancelled and running. Pending lasts only until
// the server takes the call, so no card can be held there.
func cardsOfEveryStatus(t *testing.T) (in *instance, want map[string]string, echoID string) {
	t.Helper()
	in = startWith(t, servers{"alpha": demoStdio("alpha", map[string]any{"callTimeoutSeconds": 600})})
	in.waitState(t, "alpha", "connected")
	invs := followInvocations(t, in)
	want = map[string]string{}
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"markdown_report", nil}, {"tiny_image", nil}, {"short_tone", nil}, {"resource_links", nil},
		{"embedded_text_resource", nil}, {"embedded_blob_resource", nil}, {"structured_weather", nil},
		{"echo", map[string]any{"message": longMessage()}}, {"fail_always", nil},
	} {
		if c.args == nil {
			c.args = map[string]any{}
		}
		inv := callTool(t, in, "alpha", c.tool, c.args)
		want[inv.ID] = invs.waitFinal(t, inv.ID).Status
		if c.tool == "echo" {
			echoID = inv.ID
		}
	}
	cancelled := callTool(t, in, "alpha", "long_task", map[string]any{"steps": 100, "stepMillis": 5000})
	invs.waitStatus(t, cancelled.ID, "running")
	resp, err := http.Post(in.URL+"/api/v1/invocations/"+cancelled.ID+"/cancel", "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	want[cancelled.ID] = invs.waitFinal(t, cancelled.ID).Status
	running := callTool(t, in, "alpha", "long_task", map[string]any{"steps": 100, "stepMillis": 5000})
	invs.waitStatus(t, running.ID, "running")
	want[running.ID] = "running"
	return in, want, echoID
}

// TestInvocationAccessibility: T1 item 8. axe-core (the suite's tags,
// with AAA contrast) finds nothing with cards of every status and content
// type in the feed, with a card's arguments and an image overlay open,
// in the drawer's recent calls and in the history, in light and dark.
func TestInvocationAccessibility(t *testing.T) {
	in, want, first := cardsOfEveryStatus(t)
	statuses := map[string]bool{}
	for _, s := range want {
		statuses[s] = true
	}
	for _, s := range []string{"success", "error", "cancelled", "running"} {
		if !statuses[s] {
			t.Fatalf("setup: no card ended %s (%v)", s, want)
		}
	}
	for _, scheme := range []*playwright.ColorScheme{playwright.ColorSchemeLight, playwright.ColorSchemeDark} {
		t.Run(string(*scheme), func(t *testing.T) {
			page := openCards(t, in, playwright.BrowserNewContextOptions{ColorScheme: scheme})
			for id, s := range want {
				waitFor(t, page, feedCardStatus(id, s), fmt.Sprintf("card %s %s", id, s))
			}
			checkAxe(t, page, "feed with cards of every status")

			click(t, page, feedCard(first)+` [data-testid="invocation-args"] > summary`)
			waitVisible(t, page, feedCard(first)+` [data-testid="invocation-args-json"]`, "arguments open")
			checkAxe(t, page, "a card's arguments open")
			click(t, page, feedCard(first)+` [data-testid="invocation-args-view"]`)
			waitVisible(t, page, feedCard(first)+` [data-testid="invocation-args-form"]`, "form view")
			checkAxe(t, page, "a card's arguments in form view")

			click(t, page, `#calls-list [data-testid="content-image-open"]`)
			waitVisible(t, page, `[data-testid="image-overlay"]`, "image overlay")
			checkAxe(t, page, "image overlay open")
			press(t, page, "Escape")
			waitGone(t, page, `[data-testid="image-overlay"]`, "overlay closes")

			click(t, page, `#calls-list [data-testid="resource-link"]`)
			waitFor(t, page, `#calls-list [data-testid="resource-preview"] [data-testid="content-item"]`, "resource preview")
			checkAxe(t, page, "a resource preview open")

			goTo(t, page, in.URL+"/?status=error")
			waitFor(t, page, `#calls-list [data-testid="call-row"][data-status="error"] [data-testid="call-row-error"]`, "filtered list")
			// The page's probe opens each row's card as it arrives; a
			// person's click is only needed where it did not.
			if toggle := `#calls-list [data-testid="call-row"][data-status="error"] [data-testid="call-row-toggle"]`; attr(t, page, toggle, "aria-expanded") != "true" {
				click(t, page, toggle)
			}
			waitVisible(t, page, `#calls-list [data-testid="call-card-error"]`, "an error card opened from its row")
			checkAxe(t, page, "call list filtered to errors, an error card open")

			openDrawer(t, page, "alpha")
			waitFor(t, page, drawerSel("alpha")+` [data-testid="drawer-invocations"] [data-testid="invocation-card"]`, "drawer's recent calls")
			checkAxe(t, page, "drawer with recent calls open")
		})
	}
}

// TestInvocationReducedMotion: T1 item 8. With reduced motion asked for,
// nothing animates while a card is running (the breathing dot stands
// still); without it the dot breathes, so the check has teeth.
func TestInvocationReducedMotion(t *testing.T) {
	in := startWith(t, servers{"alpha": demoStdio("alpha", map[string]any{"callTimeoutSeconds": 600})})
	in.waitState(t, "alpha", "connected")
	invs := followInvocations(t, in)
	inv := callTool(t, in, "alpha", "long_task", map[string]any{"steps": 100, "stepMillis": 5000})
	invs.waitStatus(t, inv.ID, "running")
	running := `() => JSON.stringify(document.getAnimations().filter(a => a.playState === 'running')
		.map(a => (a.animationName || a.transitionProperty || 'animation') + ' on ' +
			(a.effect && a.effect.target ? (a.effect.target.getAttribute('data-testid') || a.effect.target.className) : '?')))`
	breath := feedCard(inv.ID) + ` [data-testid="invocation-breath"]`

	normal := openCards(t, in, playwright.BrowserNewContextOptions{})
	waitFor(t, normal, breath, "the running card's breathing dot")
	var anims []string
	evalJSON(t, normal, running, nil, &anims)
	t.Logf("running animations without reduced motion: %q", anims)
	var name string
	evalJSON(t, normal, `sel => JSON.stringify(getComputedStyle(document.querySelector(sel)).animationName)`, breath, &name)
	if name == "none" {
		t.Errorf("without reduced motion the running card's dot does not breathe (animation-name none): the R3 indicator is missing")
	}

	page := openCards(t, in, playwright.BrowserNewContextOptions{ReducedMotion: playwright.ReducedMotionReduce})
	waitFor(t, page, breath, "the running card's breathing dot")
	anims = nil
	evalJSON(t, page, running, nil, &anims)
	if len(anims) != 0 {
		t.Errorf("running animations with reduced motion while a card is running: got %q, want none", anims)
	}
	evalJSON(t, page, `sel => JSON.stringify(getComputedStyle(document.querySelector(sel)).animationName)`, breath, &name)
	if name != "none" {
		t.Errorf("breathing dot animation-name under reduced motion: got %q, want none", name)
	}
	if got := text(t, page, feedCard(inv.ID)+` [data-testid="invocation-badge"]`); got == "" {
		t.Errorf("the running badge has no text under reduced motion")
	}
}
