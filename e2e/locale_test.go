//go:build e2e

package e2e

import (
	"regexp"
	"testing"

	playwright "github.com/mxschmitt/playwright-go"
)

// TestLocales: the page follows the browser's language: the html lang and
// the chip's words change.
func TestLocales(t *testing.T) {
	const name = "alpha"
	in := startWith(t, servers{name: demoStdio(name, nil)})
	in.waitState(t, name, "connected")

	type words struct{ lang, badge, dot, tipState string }
	read := func(t *testing.T, locale string) words {
		page := openWith(t, in, playwright.BrowserNewContextOptions{Locale: playwright.String(locale)})
		waitAllChips(t, page, name, "connected")
		chip := listChipSel(name)
		lang := attr(t, page, "html", "lang")
		dot := attr(t, page, chip+` [data-testid="chip-dot"]`, "aria-label")
		return words{lang, text(t, page, chip+` [data-testid="chip-badge"]`), dot, text(t, page, chip+` [data-testid="tooltip-state"]`)}
	}
	en := read(t, "en-US")
	if en.lang != "en" {
		t.Errorf("en-US: html lang: got %q, want en", en.lang)
	}
	han := regexp.MustCompile(`\p{Han}`)
	for _, tt := range []struct{ locale, lang string }{{"pt-BR", "pt-BR"}, {"zh-CN", "zh-Hans"}} {
		t.Run(tt.locale, func(t *testing.T) {
			got := read(t, tt.locale)
			if got.lang != tt.lang {
				t.Errorf("html lang: got %q, want %q", got.lang, tt.lang)
			}
			for what, pair := range map[string][2]string{"badge": {got.badge, en.badge}, "dot label": {got.dot, en.dot}, "tooltip state": {got.tipState, en.tipState}} {
				if pair[0] == "" || pair[0] == pair[1] {
					t.Errorf("%s: got %q, want a translation of the English %q", what, pair[0], pair[1])
				}
				if tt.lang == "zh-Hans" && !han.MatchString(pair[0]) {
					t.Errorf("%s: got %q, want Chinese characters", what, pair[0])
				}
			}
		})
	}
}
