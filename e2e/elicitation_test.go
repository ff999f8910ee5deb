//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	playwright "github.com/mxschmitt/playwright-go"
)

// elicitationItem is the part of GET /api/v1/elicitations the tests read.
type elicitationItem struct {
	ID           string          `json:"id"`
	ServerName   string          `json:"serverName"`
	InvocationID *string         `json:"invocationId"`
	Message      string          `json:"message"`
	Schema       json.RawMessage `json:"requestedSchema"`
}

// answerEach answers every question a server puts to the person through
// the elicitation API with body (http.DefaultClient carries the token), until the test ends, and reports each
// question it answered on the returned channel.
func answerEach(t *testing.T, in *instance, body string) <-chan elicitationItem {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	seen := make(chan elicitationItem, 16)
	go func() {
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			var list struct {
				Elicitations []elicitationItem `json:"elicitations"`
			}
			if err := apiGetCtx(ctx, in, "/api/v1/elicitations", &list); err != nil {
				continue
			}
			for _, e := range list.Elicitations {
				req, err := http.NewRequestWithContext(ctx, http.MethodPost, in.URL+"/api/v1/elicitations/"+url.PathEscape(e.ID), strings.NewReader(body))
				if err != nil {
					continue
				}
				req.Header.Set("Content-Type", "application/json")
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					continue
				}
				resp.Body.Close()
				if resp.StatusCode == http.StatusOK {
					select {
					case seen <- e:
					default:
					}
				}
			}
		}
	}()
	return seen
}

// apiGetCtx is apiGet for a goroutine: it returns the error rather than
// failing the test.
func apiGetCtx(ctx context.Context, in *instance, path string, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, in.URL+path, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	return json.NewDecoder(resp.Body).Decode(out)
}

// TestElicitationFormOnTheCard runs the demo's confirm_action from the
// dashboard: the server's question appears on the call's card as a form
// (the required mark, the title, "waiting for your answer"), axe-clean;
// it is answered by keyboard alone, and the result carries the answer.
func TestElicitationFormOnTheCard(t *testing.T) {
	in := demoOnly(t, "alpha")
	invs := followInvocations(t, in)
	page := openCards(t, in, playwright.BrowserNewContextOptions{})
	openDrawer(t, page, "alpha")
	if err := page.Locator(runButton("alpha", "confirm_action")).Click(); err != nil {
		t.Fatalf("click Run: %v", err)
	}
	waitVisible(t, page, selRunForm, "the run form opens")
	if err := page.Locator(selRunForm + ` [data-testid="run-submit"]`).Click(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, page, selRunForm+` [data-testid="run-card-slot"] [data-testid="invocation-card"]`, "the call's card under the form")
	press(t, page, "Escape")
	waitGone(t, page, selRunForm, "Escape closes the form")
	press(t, page, "Escape")

	id := invs.firstAfter(t, 0, "the confirm_action call", func(v invocation) bool { return v.Tool == "confirm_action" }).ID
	form := feedCard(id) + ` [data-testid="elicitation-form"]`
	waitVisible(t, page, form, "the question on the card")
	if got := text(t, page, form+` [data-testid="elicitation-waiting"]`); got != "alpha is waiting for your answer" {
		t.Errorf("waiting: got %q", got)
	}
	if got := text(t, page, form+` [data-testid="elicitation-message"]`); got != "Go ahead and delete the draft?" {
		t.Errorf("message: got %q", got)
	}
	if n, _ := page.Locator(form + ` [data-testid="elicitation-required"]`).Count(); n != 1 {
		t.Errorf("required marks: got %d, want 1 (confirm)", n)
	}
	var list struct {
		Elicitations []elicitationItem `json:"elicitations"`
	}
	apiGet(t, in, "/api/v1/elicitations", &list)
	if len(list.Elicitations) != 1 || list.Elicitations[0].InvocationID == nil || *list.Elicitations[0].InvocationID != id {
		t.Errorf("the API lists %+v; want the call's one question", list.Elicitations)
	}
	checkAxe(t, page, "a card with a question")

	// Keyboard only: the checkbox, then the reason, then Accept.
	if err := page.Locator(form + ` input[name="f.confirm"]`).Focus(); err != nil {
		t.Fatal(err)
	}
	press(t, page, "Space")
	press(t, page, "Tab")
	if err := page.Keyboard().Type("tests pass"); err != nil {
		t.Fatal(err)
	}
	press(t, page, "Tab")
	if got := focused(t, page).TestID; got != "elicitation-accept" {
		t.Fatalf("Tab after the last field: focus on %q, want Accept", got)
	}
	press(t, page, "Enter")

	done := invs.waitFinal(t, id)
	if done.Status != "success" || !strings.Contains(string(done.Result), `\"confirm\":true`) || !strings.Contains(string(done.Result), `tests pass`) {
		t.Errorf("the call ended %s with %s; want the person's answer", done.Status, clip(done.Result))
	}
	waitCard(t, page, id, "success")
	waitGone(t, page, form, "the question leaves the card")
	ask := feedCard(id) + ` [data-testid="invocation-ask"][data-outcome="answered_by_person"]`
	waitVisible(t, page, ask, "the ask says the person answered")
	checkAxe(t, page, "a card whose question was answered")
}

// TestElicitationAnsweredThroughTheAPI: a call made through the API has
// nobody to ask but the person; a program standing in for the person
// answers through /api/v1/elicitations, omitted fields taking the
// schema's defaults.
func TestElicitationAnsweredThroughTheAPI(t *testing.T) {
	in := demoOnly(t, "alpha")
	invs := followInvocations(t, in)
	seen := answerEach(t, in, `{"action":"accept","content":{"confirm":false}}`)
	inv := callTool(t, in, "alpha", "confirm_action", map[string]any{"action": "ship it"})
	done := invs.waitFinal(t, inv.ID)
	select {
	case e := <-seen:
		if e.Message != "Go ahead and ship it?" || !strings.Contains(string(e.Schema), `"confirm"`) {
			t.Errorf("question %+v; want the server's", e)
		}
	case <-time.After(10 * time.Second):
		t.Errorf("no question was answered through the API")
	}
	if !strings.Contains(string(done.Result), `\"action\":\"accept\"`) || !strings.Contains(string(done.Result), `\"confirm\":false`) {
		t.Errorf("result %s; want the API's answer", clip(done.Result))
	}
}
