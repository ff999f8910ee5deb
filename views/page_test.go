package views_test

import (
	"github.com/PuerkitoBio/goquery"

	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

func TestPageContract(t *testing.T) {
	doc := render(t, "pt-BR", views.NewPageProps(views.PageInput{URLs: testURLs, Now: testNow, Theme: "dark", Lang: "pt-BR",
		List: []domain.Status{{ServerName: "a", State: domain.StateConnected}}}))
	html := doc.Find("html")
	if got, _ := html.Attr("data-theme"); got != "dark" {
		t.Errorf("data-theme: got %q, want dark", got)
	}
	if got, _ := html.Attr("lang"); got != "pt-BR" {
		t.Errorf("lang: got %q, want pt-BR", got)
	}
	if got, _ := doc.Find(`meta[name="htmx-config"]`).Attr("content"); got != views.HTMXConfig {
		t.Errorf("htmx-config: got %q", got)
	}
	live := doc.Find(`[data-testid="live"]`)
	for attr, want := range map[string]string{"hx-ext": "sse", "sse-connect": "/events", "sse-swap": "status", "hx-swap": "none"} {
		if got, _ := live.Attr(attr); got != want {
			t.Errorf("live %s: got %q, want %q", attr, got, want)
		}
	}
	for _, sel := range []string{`[data-testid="header"] [data-testid="header-summary"]`,
		`[data-testid="header"] [data-testid="settings-open"][aria-expanded="false"][aria-controls="settings-panel"][popovertarget="settings-panel"]`,
		`[data-testid="header"] #settings-panel[popover][role="dialog"] form select[data-testid="theme-toggle"]`,
		`[data-testid="header"] #settings-panel form select[data-testid="preset-select"]`,
		`[data-testid="header"] #settings-panel form select[data-testid="lang-switch"]`, `#drawer-slot`, `#toast[data-testid="toast"][role="alert"]`,
		`[data-testid="server-list"] [data-testid="server-row"][data-server="a"] [data-testid="row-open"]`} {
		if doc.Find(sel).Length() != 1 {
			t.Errorf("%s: not exactly one", sel)
		}
	}
	if got, _ := doc.Find(`[data-testid="theme-toggle"] option[selected]`).Attr("value"); got != "dark" {
		t.Errorf("selected theme: got %q, want dark", got)
	}
	if got, _ := doc.Find(`[data-testid="lang-switch"] option[selected]`).Attr("value"); got != "pt-BR" {
		t.Errorf("selected language: got %q, want pt-BR", got)
	}
	if got := doc.Find(`[data-testid="lang-switch"] option[value="zh-Hans"]`).Text(); got != "简体中文" {
		t.Errorf("Chinese is named %q, want its own name", got)
	}
	scripts := doc.Find("script")
	if scripts.Length() != len(testURLs.Scripts) {
		t.Errorf("scripts: got %d, want %d", scripts.Length(), len(testURLs.Scripts))
	}
	scripts.Each(func(_ int, s *goquery.Selection) {
		if _, ok := s.Attr("defer"); !ok {
			t.Errorf("script %s is not deferred", s.AttrOr("src", "?"))
		}
		if s.Text() != "" {
			t.Errorf("inline script: %q", s.Text())
		}
	})
	if doc.Find("[style]").Length() != 0 {
		t.Errorf("an inline style attribute would be refused by the CSP")
	}
}

func TestNewPreferencesProps(t *testing.T) {
	tests := []struct{ theme, lang, wantTheme string }{
		{"light", "en", "light"}, {"", "zh-Hans", "system"}, {"neon", "pt-BR", "system"},
	}
	for _, tt := range tests {
		p := views.NewPreferencesProps("/p", tt.theme, tt.lang)
		var theme, lang string
		for _, o := range p.Themes {
			if o.Selected {
				theme = o.Value
			}
		}
		for _, o := range p.Langs {
			if o.Selected {
				lang = o.Value
			}
		}
		if theme != tt.wantTheme || lang != tt.lang {
			t.Errorf("(%q, %q): got theme %q lang %q, want %q %q", tt.theme, tt.lang, theme, lang, tt.wantTheme, tt.lang)
		}
	}
}
