package handlers_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/handlers"
)

// postAnswer posts form as htmx does from the form with id target.
func (f *fixture) postAnswer(t *testing.T, id, target string, form url.Values) (*http.Response, *goquery.Document) {
	t.Helper()
	path := strings.Replace(handlers.PathUIElicitation, ":id", id, 1)
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, f.srv.URL+path, strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("HX-Request", "true")
	req.Header.Set("HX-Target", target)
	resp, err := f.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return resp, doc
}

// An answer that breaks the schema draws the form again in the place it
// came from, under the same id and without hx-preserve (so htmx swaps it
// in rather than keeping the old one); a good answer then announces the
// outcome and tells the page to move focus, and the question is gone.
func TestElicitationAnswerRedrawsInPlaceThenAnnounces(t *testing.T) {
	svc := domain.NewElicitations(domain.ElicitationsOptions{})
	f := newFixture(t, withElicitations(svc))
	e, a := ask(t, svc, `{"message":"Who are you?","requestedSchema":`+elicitSchema+`}`)
	target := "feed-inv9-elicit-" + e.ID

	form := url.Values{"action": {"accept"}, "f.name": {"x"}, "f.age": {"31"}, "shown.f.ok": {"1"}}
	resp, doc := f.postAnswer(t, e.ID, target, form)
	s := doc.Find(`[data-testid="elicitation-form"]`)
	if resp.StatusCode != http.StatusOK || s.Length() != 1 {
		t.Fatalf("invalid answer: %d, %d forms; want the form again", resp.StatusCode, s.Length())
	}
	if got := s.AttrOr("id", ""); got != target {
		t.Errorf("redrawn form id: got %q, want %q (the target)", got, target)
	}
	if _, ok := s.Attr("hx-preserve"); ok {
		t.Errorf("the redrawn form has hx-preserve; htmx would keep the old one")
	}
	if s.Find(`[data-testid="elicitation-warnings"]`).Length() != 1 {
		t.Errorf("no warnings on the redrawn form")
	}

	resp, doc = f.postAnswer(t, e.ID, target, url.Values{"action": {"decline"}})
	if resp.StatusCode != http.StatusOK || resp.Header.Get("HX-Trigger") != handlers.ElicitationAnsweredEvent {
		t.Errorf("decline: %d, HX-Trigger %q; want 200 and %q", resp.StatusCode, resp.Header.Get("HX-Trigger"), handlers.ElicitationAnsweredEvent)
	}
	oob := doc.Find(`[hx-swap-oob="innerHTML:#activity-feed-status"]`)
	if got := oob.Text(); got != "You declined srv's question" {
		t.Errorf("announcement: got %q", got)
	}
	if doc.Find(`[data-testid="elicitation-form"]`).Length() != 0 {
		t.Errorf("the answer's response draws a form")
	}
	if got := a.wait(t); got != `{"action":"decline"}` {
		t.Errorf("server got %s; want decline", got)
	}
}
