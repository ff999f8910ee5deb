package views_test

import (
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

// oauthProject is a remote server whose oauth key a person must see before
// approving: who Switchboard will claim to be, what it will ask for, and
// that a secret is written (not the secret).
const oauthProject = `{"mcpServers": {
  "signin": {"url": "https://mcp.example.com/mcp", "oauth": {"clientId": "cid-<b>x</b>", "clientSecret": "literal-shh-${SOME_SECRET}",
    "clientMetadataUrl": "https://app.example.com/client.json", "scopes": ["read", "repo:${TOKEN}"]}},
  "plain": {"url": "https://mcp.example.com/mcp"}
}}`

func oauthStatus(t *testing.T, name string) domain.Status {
	t.Helper()
	set, err := domain.ParseSettings("/p/.mcp.json", []byte(oauthProject), func(k string) string { return secretEnv[k] })
	if err != nil || len(set.Problems) != 0 {
		t.Fatalf("parse: %v %v", err, set.Problems)
	}
	for _, c := range set.Servers {
		if c.Name == name {
			return domain.Status{ServerName: name, Source: c.Source, Transport: c.Transport, Target: c.Target(),
				BlockedReason: domain.BlockedPending, Approval: domain.NewApprovalRequest(c, "/p", nil)}
		}
	}
	t.Fatalf("no server %q", name)
	return domain.Status{}
}

func TestApprovalDialogShowsTheOAuthKey(t *testing.T) {
	render := func(server string) *goquery.Selection {
		p := views.NewApprovalProps([]domain.Status{oauthStatus(t, server)}, approveAt, rejectAt, false)
		return renderComponent(t, "en", views.ApprovalDialog(p)).Find(`[data-testid="approval-dialog"]`)
	}
	d := render("signin")
	list := d.Find(`[data-testid="approval-oauth"]`)
	var got []string
	list.Find(`[data-testid="approval-entry-text"]`).Each(func(_ int, s *goquery.Selection) { got = append(got, s.Text()) })
	want := []string{
		"clientId: cid-<b>x</b>",
		"clientSecret: " + domain.Redacted + "${SOME_SECRET}",
		"clientMetadataUrl: https://app.example.com/client.json",
		"scopes: read",
		"scopes: repo:${TOKEN}",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("oauth entries:\ngot  %q\nwant %q", got, want)
	}
	if list.Find("b").Length() != 0 {
		t.Error("a value from the file was rendered as HTML")
	}
	secret := list.Find(`[data-testid="approval-entry"][data-key="clientSecret"]`)
	if f := secret.Find(`[data-testid="approval-flag"]`).Text(); !strings.Contains(f, "sends an environment variable") {
		t.Errorf("secret flag: got %q", f)
	}
	wantNote := "${SOME_SECRET} reads your environment variable SOME_SECRET and sends it to mcp.example.com."
	if n := secret.Find(`[data-testid="approval-note"]`).Text(); n != wantNote {
		t.Errorf("secret note: got %q, want %q", n, wantNote)
	}
	scopes := list.Find(`[data-testid="approval-entry"][data-key="scopes"]`)
	if n := scopes.Eq(0).Find(`[data-testid="approval-note"]`).Length(); n != 0 {
		t.Errorf("the plain scope has %d notes", n)
	}
	if n := scopes.Eq(1).Find(`[data-testid="approval-note"]`).Text(); !strings.Contains(n, "TOKEN") {
		t.Errorf("the scope reading TOKEN: note %q", n)
	}
	if f := scopes.Eq(1).Find(`[data-testid="approval-flag"]`).Length(); f != 1 {
		t.Errorf("the scope reading TOKEN has %d flags, want 1", f)
	}
	html, _ := d.Html()
	if strings.Contains(html, "shh") || strings.Contains(html, "LEAK") {
		t.Errorf("the dialog holds a secret: %s", html)
	}

	if d := render("plain"); d.Find(`[data-testid="approval-oauth"], [data-testid="approval-oauth-none"]`).Length() != 0 {
		t.Error("an entry without an oauth key shows one")
	}
}
