package locales

import "testing"

// TestLoadSharesTheParsedBundle checks that every catalogue, the English
// fallback's included, reads one parsed bundle per language, while each
// keeps memos of its own.
func TestLoadSharesTheParsedBundle(t *testing.T) {
	a, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	b, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if a.Localizer("pt-BR").l == nil || english().l == nil {
		t.Error("no localizer")
	}
	x, _ := bundles[1]()
	y, _ := bundles[1]()
	if x != y {
		t.Error("one language's files were parsed twice")
	}
	if a.memos[0] == b.memos[0] {
		t.Error("two catalogues share their memos")
	}
	if got := english().T("no.such.id", nil); got != "no.such.id" {
		t.Errorf("English fallback of an unknown id = %q", got)
	}
}
