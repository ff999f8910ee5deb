package oauth

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
)

func TestCapScopesDropsUnfitAndExcessScopes(t *testing.T) {
	long := strings.Repeat("s", maxScopeLen)
	cases := []struct {
		name        string
		in          []string
		want        []string
		wantDropped int
	}{
		{"plain-scopes-kept-in-order", []string{"read", "write"}, []string{"read", "write"}, 0},
		{"repeats-and-empties-folded-not-counted", []string{"read", "", "read"}, []string{"read"}, 0},
		{"longest-allowed-kept", []string{long}, []string{long}, 0},
		{"one-byte-too-long-dropped", []string{long + "s", "ok"}, []string{"ok"}, 1},
		{"control-character-dropped", []string{"re\x00ad", "a\x1bb", "c\x7fd", "ok"}, []string{"ok"}, 3},
		{"spaces-dropped", []string{"a b", "a\u00a0b", "a\tb", "ok"}, []string{"ok"}, 3},
		{"quote-backslash-invalid-utf8-dropped", []string{`a"b`, `a\b`, "a\xffb"}, nil, 3},
		{"urls-and-colons-kept", []string{"https://api.example.com/read", "repo:status"},
			[]string{"https://api.example.com/read", "repo:status"}, 0},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			got, dropped := capScopes(tt.in)
			if !slices.Equal(got, tt.want) || dropped != tt.wantDropped {
				t.Errorf("got %q dropped %d, want %q dropped %d", got, dropped, tt.want, tt.wantDropped)
			}
		})
	}
}

func manyScopes(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%d", prefix, i)
	}
	return out
}

func TestChallengeScopesAreCapped(t *testing.T) {
	scopes := append(manyScopes("s", 70), strings.Repeat("x", maxScopeLen+1))
	h := http.Header{}
	h.Set("WWW-Authenticate", `Bearer error="insufficient_scope", scope="`+strings.Join(scopes, " ")+`"`)
	c := ParseChallenges(h)[0]
	if len(c.Scopes) != maxScopes || c.Scopes[0] != "s0" || c.Scopes[maxScopes-1] != "s63" {
		t.Errorf("got %d scopes (%q … %q), want the first %d", len(c.Scopes), c.Scopes[0], c.Scopes[len(c.Scopes)-1], maxScopes)
	}
	if c.DroppedScopes != 7 {
		t.Errorf("dropped: got %d, want 7", c.DroppedScopes)
	}
}

func TestUnionForMoreAccessIsCapped(t *testing.T) {
	got, dropped := union(manyScopes("granted", 40), append(manyScopes("wanted", 40), "granted0"))
	if len(got) != maxScopes || dropped != 80-maxScopes {
		t.Errorf("got %d scopes, dropped %d; want %d, dropped %d", len(got), dropped, maxScopes, 80-maxScopes)
	}
	if got[0] != "granted0" || got[40] != "wanted0" {
		t.Errorf("order: got %q then %q at 40", got[0], got[40])
	}
}

func TestMetadataScopesAreCapped(t *testing.T) {
	doc := &serverDoc{ScopesSupported: append(manyScopes("m", 100), "bad scope")}
	md := fromServerDoc(doc)
	if len(md.ScopesSupported) != maxScopes || md.DroppedScopes != 100-maxScopes+1 {
		t.Errorf("got %d scopes, dropped %d", len(md.ScopesSupported), md.DroppedScopes)
	}
}
