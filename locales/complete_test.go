package locales_test

import (
	"context"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/switchboard-mcp/switchboard/locales"
)

// pluralForms are the CLDR plural categories a message may spell out.
var pluralForms = []string{"zero", "one", "two", "few", "many", "other"}

// pluralProbes are counts that between them reach every plural category of
// the supported languages: Arabic's zero, one, two, few (3–10) and many
// (11–99), and the many of French, Spanish and Portuguese (a million).
var pluralProbes = []int{0, 1, 2, 3, 5, 11, 21, 100, 101, 102, 111, 1000, 1000000}

var placeholder = regexp.MustCompile(`\{\{\s*\.(\w+)`)

// message is one id of one language: its plain text, or its plural forms.
type message struct {
	file  string
	forms map[string]string // "other" alone for a plain text
}

// readLanguage reads every message of one language from its files.
func readLanguage(t *testing.T, lang string) map[string]message {
	t.Helper()
	files, err := filepath.Glob("*." + lang + ".toml")
	if err != nil || len(files) == 0 {
		t.Fatalf("message files of %s: %v (%v)", lang, files, err)
	}
	out := map[string]message{}
	for _, f := range files {
		var m map[string]any
		if _, err := toml.DecodeFile(f, &m); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for id, v := range m {
			if other, dup := out[id]; dup {
				t.Errorf("%s: %s is also defined in %s", f, id, other.file)
			}
			msg := message{file: f, forms: map[string]string{}}
			switch v := v.(type) {
			case string:
				msg.forms["other"] = v
			case map[string]any:
				for form, text := range v {
					s, ok := text.(string)
					if !ok || !slices.Contains(pluralForms, form) {
						t.Errorf("%s: %s.%s: want a plural form (%s) holding text", f, id, form, strings.Join(pluralForms, ", "))
						continue
					}
					msg.forms[form] = s
				}
			default:
				t.Errorf("%s: %s is neither a text nor plural forms", f, id)
			}
			out[id] = msg
		}
	}
	return out
}

func placeholders(forms map[string]string) map[string]bool {
	out := map[string]bool{}
	for _, s := range forms {
		for _, m := range placeholder.FindAllStringSubmatch(s, -1) {
			out[m[1]] = true
		}
	}
	return out
}

// TestCatalogsAreComplete checks each language against English: no id
// missing, none unknown, no placeholder English does not fill (a plural
// form may leave the count out, as Arabic's zero, one and two do), every
// plural category the language's CLDR rules ask for, and every piece's
// file present.
func TestCatalogsAreComplete(t *testing.T) {
	all, err := filepath.Glob("*.toml")
	if err != nil {
		t.Fatal(err)
	}
	langs := map[string]bool{}
	for _, l := range locales.Supported {
		langs[l.String()] = true
	}
	pieces := map[string]map[string]bool{} // piece -> languages
	for _, f := range all {
		parts := strings.Split(f, ".")
		if len(parts) != 3 || !langs[parts[1]] {
			t.Errorf("%s: name it <piece>.<lang>.toml with a supported language", f)
			continue
		}
		if pieces[parts[0]] == nil {
			pieces[parts[0]] = map[string]bool{}
		}
		pieces[parts[0]][parts[1]] = true
	}
	en := readLanguage(t, "en")
	c, err := locales.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, tag := range locales.Supported {
		lang := tag.String()
		t.Run(lang, func(t *testing.T) {
			for piece, have := range pieces {
				if !have[lang] {
					t.Errorf("%s.%s.toml is missing", piece, lang)
				}
			}
			msgs := readLanguage(t, lang)
			var missing, unknown []string
			for id := range en {
				if _, ok := msgs[id]; !ok {
					missing = append(missing, id)
				}
			}
			for id, m := range msgs {
				e, ok := en[id]
				if !ok {
					unknown = append(unknown, id+" ("+m.file+")")
					continue
				}
				want := placeholders(e.forms)
				for name := range placeholders(m.forms) {
					if !want[name] {
						t.Errorf("%s: %s uses {{.%s}}, which English does not have", m.file, id, name)
					}
				}
				if _, plural := e.forms["one"]; !plural && len(m.forms) > 1 {
					t.Errorf("%s: %s has plural forms, English has none", m.file, id)
				}
			}
			sort.Strings(missing)
			sort.Strings(unknown)
			if len(missing) > 0 {
				t.Errorf("%s lacks %s", lang, strings.Join(missing, ", "))
			}
			if len(unknown) > 0 {
				t.Errorf("%s has ids English does not: %s", lang, strings.Join(unknown, ", "))
			}
			l := c.Localizer(lang)
			if l.Lang() != lang {
				t.Fatalf("Localizer(%q).Lang() = %q", lang, l.Lang())
			}
			ctx := locales.WithLocalizer(context.Background(), l)
			for id, e := range en {
				if _, plural := e.forms["one"]; !plural {
					continue
				}
				for _, n := range pluralProbes {
					if got := locales.T(ctx, id, map[string]any{"Count": n}); got == id || got == "" {
						t.Errorf("%s: %s with Count %d has no text: a plural form is missing", lang, id, n)
						break
					}
				}
			}
		})
	}
}
