package handlers_test

import (
	"bytes"
	"net/http"
	"net/url"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/switchboard-mcp/switchboard/handlers"
)

// dashboardIn renders the dashboard for a browser asking for acceptLang.
func (f *fixture) dashboardIn(t *testing.T, acceptLang string) *goquery.Document {
	t.Helper()
	status, body := f.do(t, http.MethodGet, handlers.PathDashboard, http.Header{"Accept-Language": {acceptLang}})
	if status != http.StatusOK {
		t.Fatalf("dashboard: got %d, want 200", status)
	}
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestStyleChangeLeavesLanguageToTheBrowser: U2. A person who never chose
// a language sees the switcher on "browser language", each select posts
// only itself, so a theme or preset change stores no language, and other
// browsers keep getting their own language.
func TestStyleChangeLeavesLanguageToTheBrowser(t *testing.T) {
	store := newPrefStore()
	f := newFixture(t, func(o *handlers.Options) { o.Preferences = store })

	doc := f.dashboardIn(t, "pt-BR")
	if got, _ := doc.Find("html").Attr("lang"); got != "pt-BR" {
		t.Fatalf("html lang: got %q, want pt-BR from Accept-Language", got)
	}
	if got, _ := doc.Find(`[data-testid="lang-switch"] option[selected]`).Attr("value"); got != "auto" {
		t.Errorf("switcher with no language chosen: got %q selected, want auto (browser language)", got)
	}
	if _, ok := doc.Find(`[data-testid="preferences"]`).Attr("hx-post"); ok {
		t.Errorf("the form posts as a whole on a change; want each select to post only itself")
	}
	for _, name := range []string{"theme", "preset", "lang"} {
		sel := doc.Find(`[data-testid="preferences"] select[name="` + name + `"]`)
		if got, _ := sel.Attr("hx-params"); got != name {
			t.Errorf("select %s hx-params: got %q, want %q", name, got, name)
		}
		if got, _ := sel.Attr("hx-post"); got != handlers.PathUIPreferences {
			t.Errorf("select %s hx-post: got %q, want %q", name, got, handlers.PathUIPreferences)
		}
	}

	// What htmx sends for a change of preset, and what the script-free
	// form sends with the switcher as the page showed it.
	f.postForm(t, url.Values{"preset": {"brutalist"}}, http.Header{"HX-Request": {"true"}})
	f.postForm(t, url.Values{"theme": {"dark"}, "preset": {"brutalist"}, "lang": {"auto"}}, nil)
	if got := store.get("lang"); got != "" {
		t.Errorf("stored lang after style changes: got %q, want none", got)
	}
	for accept, want := range map[string]string{"en-US": "en", "zh-CN": "zh-Hans", "pt-BR": "pt-BR"} {
		if got, _ := f.dashboardIn(t, accept).Find("html").Attr("lang"); got != want {
			t.Errorf("html lang for %s after a style change: got %q, want %q", accept, got, want)
		}
	}
}

// TestBrowserLanguageClearsTheChoice: choosing "browser language" forgets
// a chosen language, stored and in its cookie, so Accept-Language decides
// again.
func TestBrowserLanguageClearsTheChoice(t *testing.T) {
	store := newPrefStore()
	store.set("lang", "zh-Hans")
	f := newFixture(t, func(o *handlers.Options) { o.Preferences = store })
	if got, _ := f.dashboardIn(t, "pt-BR").Find(`[data-testid="lang-switch"] option[selected]`).Attr("value"); got != "zh-Hans" {
		t.Errorf("switcher with zh-Hans chosen: got %q, want zh-Hans", got)
	}

	resp := f.postForm(t, url.Values{"lang": {"auto"}}, http.Header{"HX-Request": {"true"}})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("post auto: got %d, want 200", resp.StatusCode)
	}
	if got := store.get("lang"); got != "" {
		t.Errorf("stored lang: got %q, want none", got)
	}
	var expired bool
	for _, c := range resp.Cookies() {
		if c.Name == "lang" && c.MaxAge < 0 {
			expired = true
		}
	}
	if !expired {
		t.Errorf("the lang cookie is not expired: %v", resp.Header.Values("Set-Cookie"))
	}
	doc := f.dashboardIn(t, "pt-BR")
	if got, _ := doc.Find("html").Attr("lang"); got != "pt-BR" {
		t.Errorf("html lang: got %q, want pt-BR from Accept-Language", got)
	}
	if got, _ := doc.Find(`[data-testid="lang-switch"] option[selected]`).Attr("value"); got != "auto" {
		t.Errorf("switcher: got %q, want auto", got)
	}
}
