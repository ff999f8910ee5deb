package locales_test

import (
	"context"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/switchboard-mcp/switchboard/locales"
)

// TestCatalogsAreComplete fails when a message id exists in one language
// and not in another, or a file lacks a sibling in some language.
func TestCatalogsAreComplete(t *testing.T) {
	files, err := filepath.Glob("*.toml")
	if err != nil || len(files) == 0 {
		t.Fatalf("found %v (%v)", files, err)
	}
	langs := map[string]bool{}
	for _, l := range locales.Supported {
		langs[l.String()] = true
	}
	keys := map[string]map[string]string{} // language -> id -> file
	for _, f := range files {
		parts := strings.Split(f, ".")
		if len(parts) != 3 || !langs[parts[1]] {
			t.Errorf("%s: name it <piece>.<lang>.toml with a supported language", f)
			continue
		}
		var m map[string]any
		if _, err := toml.DecodeFile(f, &m); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if keys[parts[1]] == nil {
			keys[parts[1]] = map[string]string{}
		}
		for k := range m {
			if other, dup := keys[parts[1]][k]; dup {
				t.Errorf("%s: %s is also defined in %s", f, k, other)
			}
			keys[parts[1]][k] = f
		}
	}
	for a, ka := range keys {
		for b, kb := range keys {
			var missing []string
			for k := range ka {
				if _, ok := kb[k]; !ok {
					missing = append(missing, k)
				}
			}
			sort.Strings(missing)
			if len(missing) > 0 {
				t.Errorf("%s lacks %s (present in %s)", b, strings.Join(missing, ", "), a)
			}
		}
	}
	if len(keys) != len(locales.Supported) {
		t.Errorf("languages with messages: %d, want %d", len(keys), len(locales.Supported))
	}
}

func TestNegotiationAndPlurals(t *testing.T) {
	c, err := locales.Load()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		prefs    []string
		lang     string
		one, two string
	}{
		{[]string{"pt-BR,pt;q=0.9,en;q=0.5"}, "pt-BR", "1 ferramenta", "2 ferramentas"},
		{[]string{"pt"}, "pt-BR", "1 ferramenta", "2 ferramentas"},
		{[]string{"zh-CN"}, "zh-Hans", "1 个工具", "2 个工具"},
		{[]string{"de-DE"}, "en", "1 tool", "2 tools"},
		{[]string{"zh-Hans", "en"}, "zh-Hans", "1 个工具", "2 个工具"},
		{nil, "en", "1 tool", "2 tools"},
	}
	for _, tt := range tests {
		l := c.Localizer(tt.prefs...)
		if l.Lang() != tt.lang {
			t.Errorf("Localizer(%q).Lang() = %q, want %q", tt.prefs, l.Lang(), tt.lang)
		}
		ctx := locales.WithLocalizer(context.Background(), l)
		if got := locales.T(ctx, "ToolCount", map[string]any{"Count": 1}); got != tt.one {
			t.Errorf("%s: ToolCount(1) = %q, want %q", tt.lang, got, tt.one)
		}
		if got := locales.T(ctx, "ToolCount", map[string]any{"Count": 2}); got != tt.two {
			t.Errorf("%s: ToolCount(2) = %q, want %q", tt.lang, got, tt.two)
		}
	}
}
