package domain_test

import (
	"testing"
	"unicode"

	"github.com/switchboard-mcp/switchboard/domain"
)

func TestIsDisplayControl(t *testing.T) {
	tests := []struct {
		name string
		r    rune
		want bool
	}{
		{"escape", 0x1b, true},
		{"newline", '\n', true},
		{"tab", '\t', true},
		{"del", 0x7f, true},
		{"csi", 0x9b, true},
		{"arabic-letter-mark", 0x061c, true},
		{"rlm", 0x200f, true},
		{"rlo", 0x202e, true},
		{"fsi", 0x2068, true},
		{"line-separator", 0x2028, true},
		{"paragraph-separator", 0x2029, true},
		{"zero-width-space", 0x200b, true},
		{"word-joiner", 0x2060, true},
		{"bom", 0xfeff, true},
		{"soft-hyphen", 0x00ad, true},
		{"invisible-times", 0x2062, true},
		{"inhibit-swapping", 0x206a, true},
		{"interlinear-annotation", 0xfff9, true},
		{"tag-a", 0xe0041, true},
		{"language-tag", 0xe0001, true},
		{"zwnj-stays", 0x200c, false},
		{"zwj-stays", 0x200d, false},
		{"arabic-number-sign-stays", 0x0600, false},
		{"letter", 'a', false},
		{"space", ' ', false},
		{"cjk", '名', false},
		{"emoji", '🙂', false},
		{"nbsp", 0x00a0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := domain.IsDisplayControl(tt.r); got != tt.want {
				t.Errorf("IsDisplayControl(%U): got %v, want %v", tt.r, got, tt.want)
			}
		})
	}
}

// Every control and every invisible format character is covered, but the
// joiners and the visible prepended marks that scripts need: the one rule
// misses nothing the dialog used to escape on its own.
func TestIsDisplayControlCoversControlsAndInvisibleFormats(t *testing.T) {
	keep := map[rune]bool{0x200c: true, 0x200d: true}
	for _, rng := range []*unicode.RangeTable{unicode.Cc, unicode.Cf} {
		for _, r16 := range rng.R16 {
			for r := rune(r16.Lo); r <= rune(r16.Hi); r += rune(r16.Stride) {
				if !domain.IsDisplayControl(r) && !keep[r] && !visibleFormat(r) {
					t.Errorf("%U is not covered", r)
				}
			}
		}
		for _, r32 := range rng.R32 {
			for r := rune(r32.Lo); r <= rune(r32.Hi); r += rune(r32.Stride) {
				if !domain.IsDisplayControl(r) && !keep[r] && !visibleFormat(r) {
					t.Errorf("%U is not covered", r)
				}
			}
		}
	}
}

// visibleFormat reports whether r is a format character that shows a
// mark of its own: Arabic, Syriac, Kaithi and Egyptian number signs and
// marks, which their scripts need.
func visibleFormat(r rune) bool {
	switch {
	case r >= 0x0600 && r <= 0x0605, r == 0x06dd, r == 0x070f, r >= 0x0890 && r <= 0x0891, r == 0x08e2,
		r == 0x110bd, r == 0x110cd, r >= 0x13430 && r <= 0x1345f:
		return true
	}
	return false
}
