package static_test

import (
	"io/fs"
	"regexp"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/static"
)

// physicalAllowed lists the declarations that must stay physical, by file
// and declaration (property: value, as written). Each says why; anything
// else that names a left or right side fails, so an Arabic page keeps
// mirroring as the stylesheets grow.
var physicalAllowed = map[string][]string{
	// Centred with left: 50% and a -50% shift: the same in both directions.
	"css/approval.css": {"left: 50%", "transform: translate(-50%, -50%)"},
	"css/calls.css":    {"left: 50%", "transform: translateX(-50%)"},
}

var (
	cssComment = regexp.MustCompile(`(?s)/\*.*?\*/`)
	propName   = regexp.MustCompile(`^-?[a-z][a-z-]*$`)
	// physicalProp is a property that names a side of the box.
	physicalProp = regexp.MustCompile(`^(left|right|(margin|padding|border|scroll-margin|scroll-padding)-(left|right)(-.*)?|border-(top|bottom)-(left|right)-radius)$`)
	// sidedValue is a value that names a side, for the properties where
	// left and right are keywords (text-align, float, clear, background
	// and its position).
	sidedValue  = regexp.MustCompile(`\b(left|right)\b`)
	sidedProps  = regexp.MustCompile(`^(text-align|float|clear|background|background-position(-x)?|object-position|transform-origin|caption-side)$`)
	translateX  = regexp.MustCompile(`translate(X|3d)?\(`)
	fourSidedOf = map[string]bool{"margin": true, "padding": true, "inset": true, "border-width": true, "border-style": true, "border-color": true}
)

// TestCSSUsesLogicalSides fails on a left/right property or value in the
// project's stylesheets: the layout mirrors for right-to-left languages
// only through logical properties (margin-inline-start, inset-inline-end,
// text-align: start, border-start-start-radius), and a horizontal slide
// only through var(--dir).
func TestCSSUsesLogicalSides(t *testing.T) {
	files, err := fs.Glob(static.FS, "css/*.css")
	if err != nil || len(files) == 0 {
		t.Fatalf("no stylesheets: %v", err)
	}
	for _, name := range files {
		src, err := fs.ReadFile(static.FS, name)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range declarations(string(src)) {
			if why := physical(d.prop, d.value); why != "" && !allowed(name, d.prop+": "+d.value) {
				t.Errorf("%s: %s: %s — %s", name, d.prop, d.value, why)
			}
		}
	}
}

// TestPhysicalCatchesSides keeps the checker honest: each of these would
// break the mirrored layout and must be reported.
func TestPhysicalCatchesSides(t *testing.T) {
	bad := []string{
		".a { margin-left: 1rem }", ".a { padding-right: 0 }", ".a { border-left: 1px solid }",
		".a { border-right-color: red }", ".a { left: 0 }", ".a { right: var(--x) }", ".a { text-align: left }",
		".a { float: right }", ".a { border-top-left-radius: 2px }", ".a { background-position: right 1rem top }",
		".a { padding: 0 1rem 0 2rem }", ".a { border-radius: 0 4px 4px 0 }", ".a { transform: translateX(2rem) }",
	}
	for _, css := range bad {
		ds := declarations(css)
		if len(ds) != 1 || physical(ds[0].prop, ds[0].value) == "" {
			t.Errorf("not caught: %s", css)
		}
	}
	good := []string{
		".a { margin-inline-start: 1rem }", ".a { inset-inline: 0 }", ".a { text-align: start }", ".a { padding: 0 1rem }",
		".a { margin: 0 1rem 0 1rem }", ".a { border-radius: 999px }", ".a { transform: translateX(calc(2rem * var(--dir, 1))) }",
		".a { transform: translateY(3rem) }", ".a { inset: 0 }",
	}
	for _, css := range good {
		for _, d := range declarations(css) {
			if why := physical(d.prop, d.value); why != "" {
				t.Errorf("wrongly caught: %s (%s)", css, why)
			}
		}
	}
}

type declaration struct{ prop, value string }

// declarations splits a stylesheet into its property: value pairs,
// leaving out comments, selectors and at-rule preludes.
func declarations(css string) []declaration {
	css = cssComment.ReplaceAllString(css, " ")
	var out []declaration
	for _, part := range strings.FieldsFunc(css, func(r rune) bool { return r == ';' || r == '{' || r == '}' }) {
		prop, value, ok := strings.Cut(part, ":")
		prop = strings.ToLower(strings.TrimSpace(prop))
		// A selector with a pseudo-class has a colon too, but never a
		// property's shape (letters and hyphens only).
		if !ok || !propName.MatchString(prop) {
			continue
		}
		value = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(value), "!important"))
		out = append(out, declaration{prop, value})
	}
	return out
}

// physical says why a declaration is tied to the left or right side, or
// "" when it mirrors.
func physical(prop, value string) string {
	switch {
	case physicalProp.MatchString(prop):
		return "use the -inline-start/-inline-end (or border-start-start-radius …) property"
	case sidedProps.MatchString(prop) && sidedValue.MatchString(value):
		return "use start/end, or a logical property"
	case strings.Contains(prop, "transform") && translateX.MatchString(value) && !strings.Contains(value, "var(--dir"):
		return "a horizontal slide must take its sign from var(--dir)"
	case fourSidedOf[prop]:
		if v := values(value); len(v) == 4 && v[1] != v[3] {
			return "four values with different left and right: set the inline sides with a logical property"
		}
	case prop == "border-radius":
		// top-left top-right bottom-right bottom-left; before a slash.
		h, _, _ := strings.Cut(value, "/")
		v := values(h)
		if len(v) > 1 && !allSame(v) {
			return "uneven corners: use border-start-start-radius and its siblings"
		}
	}
	return ""
}

// values splits a shorthand's value on spaces outside parentheses.
func values(v string) []string {
	var out []string
	depth, start := 0, -1
	for i, r := range v + " " {
		switch {
		case r == '(':
			depth++
		case r == ')':
			depth--
		case r == ' ' && depth == 0:
			if start >= 0 {
				out = append(out, v[start:i])
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
	return out
}

func allSame(v []string) bool {
	for _, s := range v[1:] {
		if s != v[0] {
			return false
		}
	}
	return true
}

func allowed(file, decl string) bool {
	for _, a := range physicalAllowed[file] {
		if strings.Contains(decl, a) {
			return true
		}
	}
	return false
}
