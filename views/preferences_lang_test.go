package views_test

import (
	"testing"

	"github.com/switchboard-mcp/switchboard/views"
)

// TestLanguageSwitcherMarksBrowserLanguage: with no language of the
// person's own the switcher marks "browser language", listed first, so a
// form saved unchanged never pins the shown language.
func TestLanguageSwitcherMarksBrowserLanguage(t *testing.T) {
	for _, tt := range []struct{ chosen, want string }{
		{"", views.LangAuto}, {"ko", views.LangAuto}, {"fr", "fr"}, {"ar", "ar"}, {"en", "en"}, {"zh-Hans", "zh-Hans"},
	} {
		p := views.NewPreferencesProps("/p", "", tt.chosen)
		if p.Langs[0].Value != views.LangAuto || p.Langs[0].Label.ID != "LangAuto" {
			t.Errorf("first language option: got %+v, want %q labelled LangAuto", p.Langs[0], views.LangAuto)
		}
		var selected []string
		for _, o := range p.Langs {
			if o.Selected {
				selected = append(selected, o.Value)
			}
		}
		if len(selected) != 1 || selected[0] != tt.want {
			t.Errorf("chosen %q: got %v selected, want [%s]", tt.chosen, selected, tt.want)
		}
	}
}
