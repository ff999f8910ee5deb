package handlers_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/handlers"
	"github.com/switchboard-mcp/switchboard/jsonschema"
)

// patternSchema has a pattern Go checks, one it cannot compile (a
// lookahead), and one a backtracking engine would stall on.
const patternSchema = `{"type":"object","properties":{
	"code":{"type":"string","title":"Code","pattern":"^[A-Z]{3}$"},
	"ahead":{"type":"string","pattern":"^(?=x).*$"},
	"stall":{"type":"string","pattern":"^(a+)+$"}
}}`

// withElicitationsOnly serves the forms with no schema validator, so what
// the form warns of is the pattern check alone.
func withElicitationsOnly(svc *domain.Elicitations) func(*handlers.Options) {
	return func(o *handlers.Options) { o.Elicitations = svc }
}

// An answer that breaks a pattern is checked on the server: the form
// comes back with the field flagged and "send anyway" offered, and sent
// anyway reaches the server as typed. The server's pattern is never in
// the page.
func TestElicitationPatternCheckedWhenTheAnswerComes(t *testing.T) {
	svc := domain.NewElicitations(domain.ElicitationsOptions{})
	f := newFixture(t, withElicitationsOnly(svc))
	e, a := ask(t, svc, `{"message":"Code?","requestedSchema":`+patternSchema+`}`)
	target := "feed-inv9-elicit-" + e.ID

	form := url.Values{"action": {"accept"}, "f.code": {"abc"}, "f.ahead": {"y"}, "f.stall": {"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!"}}
	resp, doc := f.postAnswer(t, e.ID, target, form)
	s := doc.Find(`[data-testid="elicitation-form"]`)
	if resp.StatusCode != http.StatusOK || s.Length() != 1 {
		t.Fatalf("answer breaking a pattern: %d, %d forms; want the form again", resp.StatusCode, s.Length())
	}
	flagged := s.Find(`[data-testid="elicitation-pattern-warning"]`)
	if flagged.Length() != 2 {
		t.Errorf("pattern warnings: got %d, want 2 (code and stall; ahead is not checked)", flagged.Length())
	}
	for _, name := range []string{"f.code", "f.stall"} {
		if s.Find(`input[name="`+name+`"]`).AttrOr("aria-invalid", "") != "true" {
			t.Errorf("%s is not marked invalid", name)
		}
	}
	if got := s.Find(`input[name="f.code"]`).AttrOr("value", ""); got != "abc" {
		t.Errorf("the answer was not kept: %q", got)
	}
	if s.Find(`[pattern]`).Length() != 0 {
		t.Errorf("the server's pattern is on the page")
	}
	if s.Find(`[data-testid="elicitation-anyway"]`).Length() != 1 {
		t.Fatalf("no send-anyway box")
	}

	form.Set("anyway", "1")
	resp, _ = f.postAnswer(t, e.ID, target, form)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("HX-Trigger") != handlers.ElicitationAnsweredEvent {
		t.Errorf("sent anyway: %d, HX-Trigger %q", resp.StatusCode, resp.Header.Get("HX-Trigger"))
	}
	want := `{"action":"accept","content":{"ahead":"y","code":"abc","stall":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!"}}`
	if got := a.wait(t); got != want {
		t.Errorf("server got %s, want %s", got, want)
	}
}

// An answer that matches goes straight to the server.
func TestElicitationPatternMatchedIsSent(t *testing.T) {
	svc := domain.NewElicitations(domain.ElicitationsOptions{})
	f := newFixture(t, withElicitationsOnly(svc))
	e, a := ask(t, svc, `{"requestedSchema":`+patternSchema+`}`)
	resp, _ := f.postAnswer(t, e.ID, "d-elicit-"+e.ID, url.Values{"action": {"accept"}, "f.code": {"ABC"}, "f.ahead": {"y"}})
	if resp.Header.Get("HX-Trigger") != handlers.ElicitationAnsweredEvent {
		t.Errorf("a matching answer was not sent: %d", resp.StatusCode)
	}
	if got, want := a.wait(t), `{"action":"accept","content":{"ahead":"y","code":"ABC"}}`; got != want {
		t.Errorf("server got %s, want %s", got, want)
	}
}

// With the schema validator on, a broken pattern is said once: the form's
// own localized line, not the validator's words as well.
func TestElicitationPatternMismatchSaidOnce(t *testing.T) {
	svc := domain.NewElicitations(domain.ElicitationsOptions{})
	f := newFixture(t, func(o *handlers.Options) { o.Elicitations = svc; o.Validator = jsonschema.New() })
	e, _ := ask(t, svc, `{"message":"Code?","requestedSchema":{"type":"object","properties":{"code":{"type":"string","title":"Code","pattern":"^[A-Z]{3}$"}}}}`)
	_, doc := f.postAnswer(t, e.ID, "feed-inv9-elicit-"+e.ID, url.Values{"action": {"accept"}, "f.code": {"abc"}})
	items := doc.Find(`[data-testid="elicitation-warnings"] li`)
	if items.Length() != 1 {
		var got []string
		items.Each(func(_ int, s *goquery.Selection) { got = append(got, s.Text()) })
		t.Errorf("warnings %q; want the pattern mismatch said once", got)
	}
}
