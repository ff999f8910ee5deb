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
	"github.com/switchboard-mcp/switchboard/jsonschema"
)

// An answer that breaks the requested schema is warned about in the
// page's language, not in the validator's English.
func TestElicitationWarningsInThePagesLanguage(t *testing.T) {
	svc := domain.NewElicitations(domain.ElicitationsOptions{})
	f := newFixture(t, func(o *handlers.Options) { o.Elicitations = svc; o.Validator = jsonschema.New() })
	e, _ := ask(t, svc, `{"message":"Why?","requestedSchema":{"type":"object","properties":{"reason":{"type":"string","title":"Reason","minLength":5}}}}`)
	form := url.Values{"action": {"accept"}, "f.reason": {"no"}}
	path := strings.Replace(handlers.PathUIElicitation, ":id", e.ID, 1)
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, f.srv.URL+path, strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("HX-Request", "true")
	req.Header.Set("HX-Target", "feed-inv9-elicit-"+e.ID)
	req.Header.Set("Accept-Language", "de-DE")
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
	got := doc.Find(`[data-testid="elicitation-warnings"] li`).Text()
	if want := "Bei /reason: Muss mindestens 5 Zeichen lang sein"; got != want {
		t.Errorf("warning: got %q, want %q", got, want)
	}
}
