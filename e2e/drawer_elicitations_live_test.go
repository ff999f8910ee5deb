//go:build e2e

package e2e

import (
	"encoding/json"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	playwright "github.com/mxschmitt/playwright-go"
)

// asker is a server that asks its client a question outside any call
// (newParamsAsker's server, asking for a reason with message as its
// text): its settings entry, a function that makes it ask, and one that
// returns the answers it got.
type asker struct {
	entry   map[string]any
	ask     func(t *testing.T, message string)
	answers func(t *testing.T) []string
}

func newAsker(t *testing.T) asker {
	t.Helper()
	p := newParamsAsker(t)
	return asker{
		entry: p.entry,
		ask: func(t *testing.T, message string) {
			t.Helper()
			p.ask(t, map[string]any{"message": message, "requestedSchema": map[string]any{
				"type": "object", "properties": map[string]any{"reason": map[string]any{"type": "string", "title": "Reason"}}}})
		},
		answers: p.answers,
	}
}

// A question a server asks outside any call appears in its open drawer
// over the page's event stream, with no polling: the list is asked for
// once, when the drawer opens. A second question arrives while the first
// form holds what the person typed, which stays; an answer goes to the
// server and its form leaves the drawer. The drawer is axe-clean with the
// questions in it.
func TestDrawerElicitationOfNoCallArrivesWithoutPolling(t *testing.T) {
	a := newAsker(t)
	in := startWith(t, servers{"asker": a.entry})
	page := open(t, in)
	waitAllChips(t, page, "asker", "connected")

	listPath := "/ui/servers/asker/elicitations"
	var mu sync.Mutex
	var asked, done int
	page.OnRequest(func(r playwright.Request) {
		if u, err := url.Parse(r.URL()); err == nil && u.Path == listPath {
			mu.Lock()
			asked++
			mu.Unlock()
		}
	})
	page.OnRequestFinished(func(r playwright.Request) {
		if u, err := url.Parse(r.URL()); err == nil && u.Path == listPath {
			mu.Lock()
			done++
			mu.Unlock()
		}
	})
	counts := func() (int, int) {
		mu.Lock()
		defer mu.Unlock()
		return asked, done
	}

	openDrawer(t, page, "asker")
	list := drawerSel("asker") + ` [data-testid="drawer-elicitations"]`
	if trig := attr(t, page, list, "hx-trigger"); strings.Contains(trig, "every") {
		t.Errorf("the drawer's list still polls: hx-trigger %q", trig)
	}
	for deadline := time.Now().Add(15 * time.Second); ; {
		if _, d := counts(); d >= 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the drawer never loaded its list of questions")
		}
		time.Sleep(20 * time.Millisecond)
	}

	a.ask(t, "Why <b>first</b>?")
	form := list + ` [data-testid="elicitation-form"]`
	waitVisible(t, page, form, "the first question arrives in the open drawer")
	if got := text(t, page, form+` [data-testid="elicitation-message"]`); got != "Why <b>first</b>?" {
		t.Errorf("message %q, want the server's text as text", got)
	}
	first := page.Locator(form).First()
	if err := first.Locator(`input[name="f.reason"]`).Fill("because"); err != nil {
		t.Fatal(err)
	}

	a.ask(t, "Why second?")
	waitTrue(t, page, `sel => document.querySelectorAll(sel).length === 2`, form, "the second question arrives")
	if v, err := first.Locator(`input[name="f.reason"]`).InputValue(); err != nil || v != "because" {
		t.Errorf("the first form holds %q (%v) after the second question came; want what was typed", v, err)
	}
	checkAxe(t, page, "drawer with questions of no call")

	if err := first.Locator(`[data-testid="elicitation-accept"]`).Click(); err != nil {
		t.Fatal(err)
	}
	waitTrue(t, page, `sel => document.querySelectorAll(sel).length === 1`, form, "the answered question leaves the drawer")
	if got := text(t, page, form+` [data-testid="elicitation-message"]`); got != "Why second?" {
		t.Errorf("left in the drawer: %q, want the second question", got)
	}
	var got []string
	for deadline := time.Now().Add(15 * time.Second); len(got) == 0; time.Sleep(20 * time.Millisecond) {
		if got = a.answers(t); len(got) == 0 && time.Now().After(deadline) {
			t.Fatal("the server never got the answer")
		}
	}
	var ans struct {
		ID     string `json:"id"`
		Result struct {
			Action  string         `json:"action"`
			Content map[string]any `json:"content"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(got[0]), &ans); err != nil || ans.ID != "ask-1" || ans.Result.Action != "accept" || ans.Result.Content["reason"] != "because" {
		t.Errorf("the server got %s (%v), want ask-1 accepted with the reason typed", got[0], err)
	}

	if n, _ := counts(); n != 1 {
		t.Errorf("the drawer asked for its list %d times, want once (when it opened)", n)
	}
}
