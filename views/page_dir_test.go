package views_test

import (
	"testing"

	"github.com/a-h/templ"

	"github.com/switchboard-mcp/switchboard/views"
)

// TestFullPagesCarryTheWritingDirection: every full page says its
// language's direction on <html>, so an Arabic page mirrors (the drawer on
// the left, text from the right) and every other language stays left to
// right.
func TestFullPagesCarryTheWritingDirection(t *testing.T) {
	pages := map[string]templ.Component{
		"dashboard": views.Page(views.NewPageProps(views.PageInput{URLs: testURLs, Now: testNow})),
		"signin":    views.SignIn(views.SignInProps{Action: "/signin", Command: "switchboard token"}),
		"oauth":     views.OAuthPage(views.NewOAuthSignedInProps("linear")),
		"connect":   views.ConnectPage(views.ConnectPageProps{Dashboard: "/"}),
	}
	for name, page := range pages {
		for lang, want := range map[string]string{"ar": "rtl", "en": "ltr", "ja": "ltr"} {
			html := renderComponent(t, lang, page).Find("html")
			if got := html.AttrOr("dir", ""); got != want {
				t.Errorf("%s in %s: dir=%q, want %q", name, lang, got, want)
			}
			if got := html.AttrOr("lang", ""); got != lang {
				t.Errorf("%s in %s: lang=%q", name, lang, got)
			}
		}
	}
}

// TestElicitationOpenPageTakesItsDirection: the page a URL question opens
// through is built from props, not the context, so the direction travels
// with the language; the address itself stays left to right.
func TestElicitationOpenPageTakesItsDirection(t *testing.T) {
	p := views.ElicitationOpenProps{Lang: "ar", Dir: "rtl", URL: "https://example.com/x", Host: "example.com"}
	doc := renderComponent(t, "ar", views.ElicitationOpenPage(p))
	if got := doc.Find("html").AttrOr("dir", ""); got != "rtl" {
		t.Errorf("dir=%q, want rtl", got)
	}
	if got := doc.Find(`[data-testid="elicitation-open-link"]`).AttrOr("dir", ""); got != "ltr" {
		t.Errorf("link dir=%q, want ltr", got)
	}
}

// TestCodeStaysLeftToRightInArabic: a server's stderr is log text, often
// JSON, so an Arabic page must not reorder its brackets and quotes.
func TestCodeStaysLeftToRightInArabic(t *testing.T) {
	doc := renderComponent(t, "ar", views.DrawerStderr(views.DrawerStderrProps{ID: "s", HeadingID: "h", Text: `{"error": "boom"}`}, false))
	if got := doc.Find(`[data-testid="stderr"]`).AttrOr("dir", ""); got != "ltr" {
		t.Errorf("stderr dir=%q, want ltr", got)
	}
}
