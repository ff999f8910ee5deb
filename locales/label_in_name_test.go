package locales_test

import (
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/locales"
)

// TestLabelInName keeps WCAG's "label in name" in every language: where a
// control shows one message (X) and is named by a longer one (XLabel or
// XFor) whose English holds the shown words, every language's longer
// message must hold its shown words too, or speech users cannot say what
// they see (axe: label-content-name-mismatch).
func TestLabelInName(t *testing.T) {
	en := readLanguage(t, "en")
	for _, tag := range locales.Supported {
		lang := tag.String()
		msgs := readLanguage(t, lang)
		for id, shown := range en {
			for _, suffix := range []string{"Label", "For"} {
				named, ok := en[id+suffix]
				if !ok || !strings.Contains(strings.ToLower(named.forms["other"]), strings.ToLower(shown.forms["other"])) {
					continue
				}
				s, n := msgs[id].forms["other"], msgs[id+suffix].forms["other"]
				if s == "" || n == "" {
					continue // TestCatalogsAreComplete reports it
				}
				if !strings.Contains(strings.ToLower(n), strings.ToLower(s)) {
					t.Errorf("%s: %s %q does not hold the shown %s %q", lang, id+suffix, n, id, s)
				}
			}
		}
	}
}
