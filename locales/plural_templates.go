package locales

import (
	"encoding/json"
	"strconv"

	"github.com/nicksnyder/go-i18n/v2/i18n"
)

// pluralProbes are counts that between them fall in every CLDR plural
// category of the supported languages: zero, one, two, Arabic's few
// (3–10) and many (11–99), other (100), and the many that French, Spanish
// and Portuguese use for a million.
var pluralProbes = []int{0, 1, 2, 3, 11, 100, 1000000}

// PluralTemplates returns, as a JSON object, the text of a plural message
// for each probe count, with sentinel where the count goes: for a page
// that counts by itself (the "N new calls" button). Its script picks the
// probe in the same plural category as its count with Intl.PluralRules
// and puts the count in place of sentinel.
func (l *Localizer) PluralTemplates(id, sentinel string) string {
	out := map[string]string{}
	for _, n := range pluralProbes {
		s, err := l.l.Localize(&i18n.LocalizeConfig{MessageID: id, PluralCount: n, TemplateData: map[string]any{"Count": sentinel}})
		if err == nil {
			out[strconv.Itoa(n)] = s
		}
	}
	b, _ := json.Marshal(out) // a map of strings always encodes
	return string(b)
}
