package locales_test

import (
	"context"
	"testing"

	"github.com/switchboard-mcp/switchboard/locales"
)

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
		{[]string{"de-DE"}, "de", "", ""},
		{[]string{"es-MX"}, "es", "", ""},
		{[]string{"es-419,es;q=0.9"}, "es", "", ""},
		{[]string{"fr-CA"}, "fr", "", ""},
		{[]string{"ja-JP"}, "ja", "", ""},
		{[]string{"ar-EG"}, "ar", "", ""},
		{[]string{"ar-SA,en;q=0.5"}, "ar", "", ""},
		{[]string{"zh-SG"}, "zh-Hans", "1 个工具", "2 个工具"},
		{[]string{"pt-PT"}, "pt-BR", "1 ferramenta", "2 ferramentas"},
		{[]string{"ko-KR"}, "en", "1 tool", "2 tools"},
		{[]string{"zh-Hans", "en"}, "zh-Hans", "1 个工具", "2 个工具"},
		{nil, "en", "1 tool", "2 tools"},
	}
	for _, tt := range tests {
		l := c.Localizer(tt.prefs...)
		if l.Lang() != tt.lang {
			t.Errorf("Localizer(%q).Lang() = %q, want %q", tt.prefs, l.Lang(), tt.lang)
		}
		if tt.one == "" {
			continue // the counts of these languages are checked by TestCatalogsAreComplete
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
