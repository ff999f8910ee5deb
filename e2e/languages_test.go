//go:build e2e

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	playwright "github.com/mxschmitt/playwright-go"
)

// languageCases are the browser locales of the eight languages, each with
// the <html lang> and dir it must get: regional variants are what browsers
// send, so they are what negotiation must map.
var languageCases = []struct{ locale, lang, dir string }{
	{"en-US", "en", "ltr"},
	{"pt-BR", "pt-BR", "ltr"},
	{"zh-CN", "zh-Hans", "ltr"},
	{"es-MX", "es", "ltr"},
	{"de-DE", "de", "ltr"},
	{"fr-FR", "fr", "ltr"},
	{"ja-JP", "ja", "ltr"},
	{"ar-EG", "ar", "rtl"},
}

// languageArtifacts is where each language's screenshot is kept for a
// person to look at: SWITCHBOARD_ARTIFACTS, else e2e/artifacts (ignored
// by git), so CI can upload it and a local run leaves it beside the tests.
func languageArtifacts(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("SWITCHBOARD_ARTIFACTS")
	if dir == "" {
		dir = "artifacts"
	}
	dir = filepath.Join(dir, "languages")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestEveryLanguage renders the dashboard, a drawer, the run form and a
// call's card in each of the eight languages, in light and dark, runs
// axe-core (AA and AAA contrast) on each, checks the page's language and
// direction and that the words are not English outside English, and keeps
// a screenshot per language and scheme.
func TestEveryLanguage(t *testing.T) {
	in := startWith(t, servers{"alpha": demoStdio("alpha", nil)})
	in.waitState(t, "alpha", "connected")
	dir := languageArtifacts(t)
	english := map[string]string{}
	for _, scheme := range []*playwright.ColorScheme{playwright.ColorSchemeLight, playwright.ColorSchemeDark} {
		for _, lc := range languageCases {
			t.Run(fmt.Sprintf("%s/%s", *scheme, lc.lang), func(t *testing.T) {
				page := openWith(t, in, playwright.BrowserNewContextOptions{ColorScheme: scheme, Locale: playwright.String(lc.locale),
					Viewport: &playwright.Size{Width: 1280, Height: 900}})
				waitChip(t, page, "alpha", "connected")
				if got := attr(t, page, "html", "lang"); got != lc.lang {
					t.Errorf("html lang: got %q, want %q", got, lc.lang)
				}
				if got := attr(t, page, "html", "dir"); got != lc.dir {
					t.Errorf("html dir: got %q, want %q", got, lc.dir)
				}
				checkAxe(t, page, "page")

				openDrawer(t, page, "alpha")
				checkAxe(t, page, "drawer")
				if err := page.Locator(runButton("alpha", "echo")).Click(); err != nil {
					t.Fatalf("click Run: %v", err)
				}
				waitVisible(t, page, selRunForm+`[role="dialog"]`, "the run form opens")
				if err := page.Locator(runField("message") + " input").Fill("مرحبا hello 你好"); err != nil {
					t.Fatal(err)
				}
				checkAxe(t, page, "run form")
				submit := text(t, page, selRunForm+` [data-testid="run-submit"]`)
				if lc.lang == "en" {
					english[string(*scheme)] = submit
				} else if submit == "" || submit == english[string(*scheme)] {
					t.Errorf("the run form's submit reads %q, the English %q", submit, english[string(*scheme)])
				}
				if err := page.Locator(selRunForm + ` [data-testid="run-submit"]`).Click(); err != nil {
					t.Fatal(err)
				}
				card := selRunForm + ` [data-testid="run-card-slot"] [data-testid="invocation-card"][data-status="success"]`
				waitFor(t, page, card, "the call's card under the form")
				checkAxe(t, page, "card")
				path := filepath.Join(dir, lc.lang+"-"+string(*scheme)+".png")
				settle(t, page)
				if _, err := page.Screenshot(playwright.PageScreenshotOptions{Path: playwright.String(path)}); err != nil {
					t.Errorf("screenshot %s: %v", path, err)
				} else {
					t.Logf("saved %s", path)
				}
			})
		}
	}
}
