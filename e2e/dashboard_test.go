//go:build e2e

package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	playwright "github.com/mxschmitt/playwright-go"
)

func newPage(t *testing.T, opts playwright.BrowserNewContextOptions) playwright.Page {
	t.Helper()
	bc, err := browser.NewContext(opts)
	if err != nil {
		t.Fatalf("new browser context: %v", err)
	}
	t.Cleanup(func() { bc.Close() })
	page, err := bc.NewPage()
	if err != nil {
		t.Fatalf("new page: %v", err)
	}
	return page
}

func TestDemoDashboard(t *testing.T) {
	in := start(t)
	in.waitState(t, "demo-stdio", "connected")
	in.waitState(t, "demo-http", "connected")

	page := newPage(t, playwright.BrowserNewContextOptions{Locale: playwright.String("en-US")})
	if _, err := page.Goto(in.URL); err != nil {
		t.Fatalf("open dashboard: %v", err)
	}
	chips := page.Locator(`header [data-testid="status-chip"]`)
	if n, _ := chips.Count(); n != 3 {
		t.Errorf("header chips = %d, want 3 (the demo servers)", n)
	}
	notice, err := page.Locator(`[data-testid="demo-notice"]`).TextContent()
	if err != nil || !strings.Contains(notice, "Demo mode") {
		t.Errorf("demo notice = %q, %v; want it to say demo mode", notice, err)
	}
	chip := page.Locator(`header [data-testid="status-chip"][data-server="demo-stdio"]`)
	if state, _ := chip.GetAttribute("data-state"); state != "connected" {
		t.Errorf("demo-stdio chip state %q, want connected", state)
	}
	badge, _ := chip.Locator(".chip-badge").TextContent()
	if !strings.HasSuffix(badge, " tools") {
		t.Errorf("demo-stdio badge %q, want a tool count", badge)
	}
	if role, _ := chip.GetAttribute("role"); role != "status" {
		t.Errorf("chip role %q, want status", role)
	}
	label, _ := chip.Locator(".dot").GetAttribute("aria-label")
	if label != "connected" {
		t.Errorf("dot aria-label %q, want connected", label)
	}
}

func TestDashboardSpeaksTheBrowsersLanguage(t *testing.T) {
	in := start(t)
	for _, tt := range []struct{ locale, lang, heading string }{
		{"pt-BR", "pt-BR", "Servidores"},
		{"zh-CN", "zh-Hans", "服务器"},
		{"en-GB", "en", "Servers"},
	} {
		page := newPage(t, playwright.BrowserNewContextOptions{Locale: playwright.String(tt.locale)})
		if _, err := page.Goto(in.URL); err != nil {
			t.Fatal(err)
		}
		if lang, _ := page.Locator("html").GetAttribute("lang"); lang != tt.lang {
			t.Errorf("%s: <html lang> = %q, want %q", tt.locale, lang, tt.lang)
		}
		if h, _ := page.Locator("#servers-heading").TextContent(); h != tt.heading {
			t.Errorf("%s: heading %q, want %q", tt.locale, h, tt.heading)
		}
	}
}

// TestDashboardAccessibility runs axe-core in both colour schemes: WCAG 2.2
// AA, best practices, and AAA contrast for the status text.
func TestDashboardAccessibility(t *testing.T) {
	in := start(t)
	in.waitState(t, "demo-stdio", "connected")
	for _, scheme := range []*playwright.ColorScheme{playwright.ColorSchemeLight, playwright.ColorSchemeDark} {
		page := newPage(t, playwright.BrowserNewContextOptions{ColorScheme: scheme})
		if _, err := page.Goto(in.URL); err != nil {
			t.Fatal(err)
		}
		for _, v := range axe(t, page) {
			t.Errorf("%s scheme: axe %s (%s): %s %v", *scheme, v.ID, v.Impact, v.Help, v.Targets())
		}
	}
}

type axeViolation struct {
	ID     string `json:"id"`
	Impact string `json:"impact"`
	Help   string `json:"help"`
	Nodes  []struct {
		Target []any `json:"target"`
	} `json:"nodes"`
}

func (v axeViolation) Targets() []any {
	var out []any
	for _, n := range v.Nodes {
		out = append(out, n.Target...)
	}
	return out
}

func axe(t *testing.T, page playwright.Page) []axeViolation {
	t.Helper()
	if _, err := page.Evaluate(axeJS); err != nil {
		t.Fatalf("inject axe-core: %v", err)
	}
	raw, err := page.Evaluate(`async () => JSON.stringify((await axe.run(document, {
		runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']},
		rules: {'color-contrast-enhanced': {enabled: true}}
	})).violations)`)
	if err != nil {
		t.Fatalf("run axe-core: %v", err)
	}
	var out []axeViolation
	if err := json.Unmarshal([]byte(raw.(string)), &out); err != nil {
		t.Fatalf("decode axe result: %v", err)
	}
	return out
}
