package views_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	goExpr      = regexp.MustCompile(`\{[^{}]*\}`)
	tag         = regexp.MustCompile(`<[^<>]*>`)
	textAttr    = regexp.MustCompile(`\b(aria-label|title|placeholder|alt|aria-description|aria-roledescription)="[^"]*[A-Za-z][^"]*"`)
	statementRE = regexp.MustCompile(`^\s*(if |for |switch |case |default:|} else|}|@|templ |package |import |//|\))`)
)

// TestTemplatesHaveNoLiteralText fails when a .templ file shows a person
// text that does not come from the locales catalogue.
func TestTemplatesHaveNoLiteralText(t *testing.T) {
	files, err := filepath.Glob("*.templ")
	if err != nil || len(files) == 0 {
		t.Fatalf("no templates found: %v", err)
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(src), "\n") {
			if m := textAttr.FindString(line); m != "" {
				t.Errorf("%s:%d: literal text attribute %s; use locales.T", f, i+1, m)
			}
			if statementRE.MatchString(line) && !strings.Contains(line, "<") {
				continue
			}
			rest := line
			for goExpr.MatchString(rest) {
				rest = goExpr.ReplaceAllString(rest, "")
			}
			rest = tag.ReplaceAllString(rest, "")
			rest = strings.TrimSpace(rest)
			if statementRE.MatchString(rest) || rest == "" {
				continue
			}
			if strings.ContainsAny(rest, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") {
				t.Errorf("%s:%d: literal text %q; use locales.T", f, i+1, rest)
			}
		}
	}
}
