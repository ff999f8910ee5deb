package oauth

import (
	"net/http"
	"slices"
	"testing"
)

func TestParseChallengesReadsEverySyntax(t *testing.T) {
	h := http.Header{}
	h.Add("WWW-Authenticate", `Negotiate abc+/==, Basic realm="x, y", bearer error="insufficient_scope", scope="read write", resource_metadata="https://a.example/.well-known/oauth-protected-resource/mcp"`)
	h.Add("WWW-Authenticate", `DPoP algs="ES256", Bearer Error_Description="say \"no\"", realm=api`)
	got := ParseChallenges(h)
	if len(got) != 5 {
		t.Fatalf("got %d challenges: %+v", len(got), got)
	}
	wantSchemes := []string{"Negotiate", "Basic", "bearer", "DPoP", "Bearer"}
	for i, c := range got {
		if c.Scheme != wantSchemes[i] {
			t.Errorf("challenge %d scheme %q, want %q", i, c.Scheme, wantSchemes[i])
		}
	}
	b := got[2]
	if b.Error != "insufficient_scope" || !slices.Equal(b.Scopes, []string{"read", "write"}) ||
		b.ResourceMetadata != "https://a.example/.well-known/oauth-protected-resource/mcp" || !b.InsufficientScope() {
		t.Errorf("bearer challenge = %+v", b)
	}
	if got[4].Description != `say "no"` {
		t.Errorf("escaped description = %q", got[4].Description)
	}
}

func TestParseChallengesKeepsWhatPrecedesJunk(t *testing.T) {
	h := http.Header{"Www-Authenticate": {`Bearer scope="a" junk junk`, `Basic`, ``}}
	got := ParseChallenges(h)
	if len(got) != 2 || got[0].Scheme != "Bearer" || !slices.Equal(got[0].Scopes, []string{"a"}) || got[1].Scheme != "Basic" {
		t.Fatalf("got %+v", got)
	}
}

func TestBearerChallengeTakesStatus(t *testing.T) {
	resp := &http.Response{StatusCode: 403, Header: http.Header{"Www-Authenticate": {`Basic realm="r", Bearer error="insufficient_scope", scope="x"`}}}
	c, ok := BearerChallenge(resp)
	if !ok || c.Status != 403 || c.Error != "insufficient_scope" {
		t.Fatalf("got %+v %v", c, ok)
	}
	if _, ok := BearerChallenge(&http.Response{Header: http.Header{"Www-Authenticate": {`Basic realm="r"`}}}); ok {
		t.Fatal("found a Bearer challenge in a Basic-only header")
	}
}
