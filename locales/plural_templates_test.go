package locales_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/locales"
)

// Arabic's "N new calls" takes a form per category, each with the
// sentinel where the count goes, or no count at all where the form says it
// in words; English has one and other.
func TestPluralTemplates(t *testing.T) {
	c, err := locales.Load()
	if err != nil {
		t.Fatal(err)
	}
	read := func(lang string) map[string]string {
		var m map[string]string
		if err := json.Unmarshal([]byte(c.Localizer(lang).PluralTemplates("CallsNew", "#N#")), &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	if got := read("en"); got["1"] != "#N# new call" || got["2"] != "#N# new calls" || got["0"] != "#N# new calls" {
		t.Errorf("English templates = %q", got)
	}
	ar := read("ar")
	for _, probe := range []string{"0", "1", "2", "3", "11", "100"} {
		if ar[probe] == "" {
			t.Errorf("Arabic has no template for the category of %s: %q", probe, ar)
		}
	}
}

// In Arabic a name inside a sentence is isolated, so its brackets and
// digits stay with it; in English the text is left as it is.
func TestRightToLeftIsolatesNames(t *testing.T) {
	c, err := locales.Load()
	if err != nil {
		t.Fatal(err)
	}
	const name = "github (work) 2"
	ar := c.Localizer("ar").T("OpenDetailsFor", map[string]any{"Name": name})
	if !strings.Contains(ar, "\u2068"+name+"\u2069") {
		t.Errorf("Arabic: %q does not isolate %q", ar, name)
	}
	if en := c.Localizer("en").T("OpenDetailsFor", map[string]any{"Name": name}); en != "Details for "+name {
		t.Errorf("English: %q", en)
	}
}

// A count is written as its language writes numbers, while its plural
// form is still chosen by the number.
func TestCountsInTheLanguagesDigits(t *testing.T) {
	c, err := locales.Load()
	if err != nil {
		t.Fatal(err)
	}
	for lang, want := range map[string]string{"en": "1,234 tools", "de": "1.234 Tools", "ar": "١٬٢٣٤ أداة"} {
		if got := c.Localizer(lang).T("ToolCount", map[string]any{"Count": 1234}); got != want {
			t.Errorf("%s: ToolCount(1234) = %q, want %q", lang, got, want)
		}
	}
}
