package handlers_test

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/handlers"
)

// The status's auth object: every key present, times in epoch ms, null
// for what is not known, and scopes an array even when there are none.
func TestStatusAuthJSON(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   domain.AuthStatus
		want string
	}{
		{
			name: "signed-in-says-until-when-and-by-whom",
			in: domain.AuthStatus{State: domain.AuthSignedIn, Scopes: []string{"repo", "read:org"}, ExpiresAt: t0.Add(time.Hour),
				Issuer: "https://github.com/login/oauth", KeySource: domain.KeySourceKeychain},
			want: `{"state":"signed_in","scopes":["repo","read:org"],"expiresAt":1796032800000,"issuer":"https://github.com/login/oauth",
				"moreAccess":false,"detail":null,"keySource":"keychain","redirectUri":null}`,
		},
		{
			name: "sign-in-needed-knows-nothing-yet",
			in:   domain.AuthStatus{State: domain.AuthSignInNeeded},
			want: `{"state":"sign_in_needed","scopes":[],"expiresAt":null,"issuer":null,"moreAccess":false,"detail":null,
				"keySource":null,"redirectUri":null}`,
		},
		{
			name: "needs-client-id-names-the-redirect-uri",
			in: domain.AuthStatus{State: domain.AuthNeedsClientID, Issuer: "https://as.example", MoreAccess: true,
				Detail: "no dynamic registration", KeySource: domain.KeySourceFile, RedirectURI: "http://127.0.0.1:7391/oauth/callback"},
			want: `{"state":"needs_client_id","scopes":[],"expiresAt":null,"issuer":"https://as.example","moreAccess":true,
				"detail":"no dynamic registration","keySource":"key_file","redirectUri":"http://127.0.0.1:7391/oauth/callback"}`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := tc.in
			got, err := json.Marshal(handlers.StatusJSON(domain.Status{ServerName: "gh", Auth: &a}))
			if err != nil {
				t.Fatalf("marshal: %v", err)
			}
			var fields map[string]json.RawMessage
			if err := json.Unmarshal(got, &fields); err != nil {
				t.Fatalf("unmarshal: %v", err)
			}
			var want bytes.Buffer
			if err := json.Compact(&want, []byte(tc.want)); err != nil {
				t.Fatalf("bad want: %v", err)
			}
			if !bytes.Equal(fields["auth"], want.Bytes()) {
				t.Errorf("auth got  %s\nwant %s", fields["auth"], want.Bytes())
			}
		})
	}
}

func TestStatusAuthJSONDoesNotAliasScopes(t *testing.T) {
	a := domain.AuthStatus{State: domain.AuthSignedIn, Scopes: []string{"read"}}
	d := handlers.StatusJSON(domain.Status{Auth: &a})
	a.Scopes[0] = "changed"
	if d.Auth.Scopes[0] != "read" {
		t.Errorf("scopes after the snapshot changed: got %v, want [read]", d.Auth.Scopes)
	}
}
