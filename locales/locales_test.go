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
// and not in another.
func TestCatalogsAreComplete(t *testing.T) {
	files, err := filepath.Glob("active.*.toml")
	if err != nil || len(files) != len(locales.Supported) {
		t.Fatalf("found %v (%v), want one file per supported language (%d)", files, err, len(locales.Supported))
	}
	keys := map[string]map[string]bool{}
	for _, f := range files {
		var m map[string]any
		if _, err := toml.DecodeFile(f, &m); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		keys[f] = map[string]bool{}
		for k := range m {
			keys[f][k] = true
		}
	}
	for a, ka := range keys {
		for b, kb := range keys {
			var missing []string
			for k := range ka {
				if !kb[k] {
					missing = append(missing, k)
				}
			}
			sort.Strings(missing)
			if len(missing) > 0 {
				t.Errorf("%s lacks %s (present in %s)", b, strings.Join(missing, ", "), a)
			}
		}
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
