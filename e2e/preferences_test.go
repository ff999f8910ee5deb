//go:build e2e

package e2e

import (
	"slices"
	"strings"
	"testing"

	playwright "github.com/mxschmitt/playwright-go"
)

// choose selects the option of select sel whose value starts with prefix
// and returns that value.
func choose(t *testing.T, page playwright.Page, sel, prefix string) string {
	t.Helper()
	waitFor(t, page, sel, "the select")
	openSettings(t, page)
	var values []string
	evalJSON(t, page, `sel => JSON.stringify([...document.querySelector(sel).options].map(o => o.value))`, sel, &values)
	for _, v := range values {
		if strings.HasPrefix(v, prefix) {
			if _, err := page.Locator(sel).SelectOption(playwright.SelectOptionValues{Values: &[]string{v}}); err != nil {
				t.Fatalf("select %s in %s: %v", v, sel, err)
			}
			return v
		}
	}
	t.Fatalf("%s: no option starting with %q among %q", sel, prefix, values)
	return ""
}

// TestThemePersists: the theme chosen in the header survives a reload and
// a new browser (the preference lives on the server).
func TestThemePersists(t *testing.T) {
	in := startWith(t, servers{"alpha": demoStdio("alpha", nil)})
	page := openWith(t, in, playwright.BrowserNewContextOptions{Locale: playwright.String("en-US"), ColorScheme: playwright.ColorSchemeLight})
	if got := attr(t, page, "html", "data-theme"); got != "system" {
		t.Errorf("initial html data-theme: got %q, want system", got)
	}
	const sel = `[data-testid="header"] [data-testid="theme-toggle"]`
	if got := count(t, page, selHeader+` form select[data-testid="theme-toggle"]`); got != 1 {
		t.Errorf("theme toggle: got %d <select> elements inside a form, want 1", got)
	}
	choose(t, page, sel, "dark")
	waitFor(t, page, `html[data-theme="dark"]`, "theme saved and page reloaded")
	if _, err := page.Reload(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, page, `html[data-theme="dark"]`, "dark after a reload")
	checkAxe(t, page, "dark chosen over a light system scheme")
	if got, _ := page.Locator(sel).InputValue(playwright.LocatorInputValueOptions{Timeout: playwright.Float(5000)}); got != "dark" {
		t.Errorf("theme toggle after reload: got %q, want dark", got)
	}
	other := openWith(t, in, playwright.BrowserNewContextOptions{Locale: playwright.String("en-US"), ColorScheme: playwright.ColorSchemeLight})
	if got := attr(t, other, "html", "data-theme"); got != "dark" {
		t.Errorf("html data-theme in a new browser context: got %q, want dark", got)
	}
}

// TestLanguagePersists: the language chosen in the header wins over the
// browser's, after a reload and in a new browser.
func TestLanguagePersists(t *testing.T) {
	in := startWith(t, servers{"alpha": demoStdio("alpha", nil)})
	page := open(t, in)
	if got := attr(t, page, "html", "lang"); got != "en" {
		t.Errorf("initial html lang: got %q, want en", got)
	}
	const sel = `[data-testid="header"] [data-testid="lang-switch"]`
	var langs []string
	waitFor(t, page, sel, "language switcher")
	evalJSON(t, page, `sel => JSON.stringify([...document.querySelector(sel).options].map(o => o.value + "=" + o.textContent.trim()))`, sel, &langs)
	// Each language is listed in its own name, whatever the page's language.
	want := []string{"en=English", "pt-BR=Português (Brasil)", "zh-Hans=简体中文", "es=Español", "de=Deutsch",
		"fr=Français", "ja=日本語", "ar=العربية"}
	if len(langs) != len(want)+1 || !strings.HasPrefix(langs[0], "auto=") || !slices.Equal(langs[1:], want) {
		t.Errorf("language options: got %q, want browser language (auto) and %q", langs, want)
	}
	choose(t, page, sel, "pt")
	waitFor(t, page, `html[lang="pt-BR"]`, "language saved and page reloaded")
	if _, err := page.Reload(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, page, `html[lang="pt-BR"]`, "pt-BR after a reload")
	other := open(t, in) // an en-US browser with no cookies
	if got := attr(t, other, "html", "lang"); got != "pt-BR" {
		t.Errorf("html lang in a new en-US browser context: got %q, want pt-BR", got)
	}
	choose(t, other, sel, "zh")
	waitFor(t, other, `html[lang="zh-Hans"]`, "switch to Chinese")
}

// TestStyleChangeLeavesLanguageToTheBrowser: U2. A Portuguese browser that
// changes only the style preset and the theme stores no language: fresh
// English and Chinese browsers still get their own, and choosing "browser
// language" after a language was chosen hands the choice back.
func TestStyleChangeLeavesLanguageToTheBrowser(t *testing.T) {
	in := startWith(t, servers{"alpha": demoStdio("alpha", nil)})
	inLocale := func(locale string) playwright.Page {
		return openWith(t, in, playwright.BrowserNewContextOptions{Locale: playwright.String(locale)})
	}
	pt := inLocale("pt-BR")
	waitFor(t, pt, `html[lang="pt-BR"]`, "Portuguese from Accept-Language")
	if got, _ := pt.Locator(selHeader + ` [data-testid="lang-switch"]`).InputValue(); got != "auto" {
		t.Errorf("language switcher with nothing chosen: got %q, want auto", got)
	}
	choose(t, pt, selHeader+` [data-testid="preset-select"]`, "brutalist")
	waitFor(t, pt, `html[data-preset="brutalist"]`, "preset saved and page reloaded")
	choose(t, pt, selHeader+` [data-testid="theme-toggle"]`, "dark")
	waitFor(t, pt, `html[data-theme="dark"]`, "theme saved and page reloaded")
	for locale, want := range map[string]string{"en-US": "en", "zh-CN": "zh-Hans"} {
		if got := attr(t, inLocale(locale), "html", "lang"); got != want {
			t.Errorf("html lang in a new %s browser after a style change: got %q, want %q", locale, got, want)
		}
	}

	choose(t, pt, selHeader+` [data-testid="lang-switch"]`, "zh")
	waitFor(t, pt, `html[lang="zh-Hans"]`, "Chinese chosen")
	if got := attr(t, inLocale("en-US"), "html", "lang"); got != "zh-Hans" {
		t.Errorf("html lang in a new en-US browser after choosing Chinese: got %q, want zh-Hans", got)
	}
	choose(t, pt, selHeader+` [data-testid="lang-switch"]`, "auto")
	waitFor(t, pt, `html[lang="pt-BR"]`, "browser language again")
	if got := attr(t, inLocale("en-US"), "html", "lang"); got != "en" {
		t.Errorf("html lang in a new en-US browser after browser language: got %q, want en", got)
	}
	checkAxe(t, pt, "preferences with browser language")
}

// openSettings opens the header's settings popover, where the theme,
// style and language selects live, unless it is open already.
func openSettings(t *testing.T, page playwright.Page) {
	t.Helper()
	if attr(t, page, `[data-testid="settings-open"]`, "aria-expanded") == "true" {
		return
	}
	click(t, page, `[data-testid="settings-open"]`)
	waitVisible(t, page, `[data-testid="settings-panel"] [data-testid="theme-toggle"]`, "the settings popover")
}
