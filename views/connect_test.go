package views_test

import (
	"strings"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

var connectTarget = domain.ConnectTarget{URL: "http://127.0.0.1:7391/mcp", Executable: "/opt/sb/switchboard"}

func TestConnectBodyShowsANewTokenOnceAndInEverySnippet(t *testing.T) {
	tokens := views.ConnectTokensProps{Enabled: true, CreateURL: "/ui/client-tokens", NewName: "cursor", NewSecret: "sbc_secret<&>",
		Rows: []views.ConnectTokenRow{{Name: "cursor", Created: time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC), RevokeURL: "/ui/client-tokens/cursor/revoke"}}}
	doc := renderComponent(t, "en", views.ConnectBody(views.NewConnectBodyProps(tokens, connectTarget)))
	if got := doc.Find(`[data-testid="connect-new-secret"]`).Text(); got != "sbc_secret<&>" {
		t.Errorf("new secret: got %q", got)
	}
	snippets := doc.Find(`[data-testid="connect-snippet"]`)
	if snippets.Length() != len(domain.ConnectClients()) {
		t.Fatalf("snippets: got %d, want %d", snippets.Length(), len(domain.ConnectClients()))
	}
	for i := range snippets.Length() {
		s := snippets.Eq(i).Text()
		if !strings.Contains(s, "sbc_secret<&>") {
			t.Errorf("snippet %d lacks the new secret:\n%s", i, s)
		}
	}
	row := doc.Find(`[data-testid="connect-token-row"]`)
	if row.Length() != 1 || !strings.Contains(row.Text(), "2026-12-01 10:00 UTC") || !strings.Contains(row.Text(), "Never") {
		t.Errorf("token row: got %q", row.Text())
	}
	if v, _ := row.Find(`[data-testid="connect-token-revoke"]`).Attr("aria-label"); v != "Revoke cursor" {
		t.Errorf("revoke label: got %q", v)
	}
}

func TestConnectBodyWithoutATokenUsesThePlaceholder(t *testing.T) {
	doc := renderComponent(t, "pt-BR", views.ConnectBody(views.NewConnectBodyProps(views.ConnectTokensProps{Enabled: true}, connectTarget)))
	if doc.Find(`[data-testid="connect-new-token"]`).Length() != 0 {
		t.Errorf("a new token is shown though none was created")
	}
	if got := doc.Find(`[data-testid="connect-tokens-none"]`).Text(); got != "Nenhum token de cliente ainda." {
		t.Errorf("empty list in pt-BR: got %q", got)
	}
	desktop := doc.Find(`[data-client="claude-desktop"] [data-testid="connect-snippet"]`).Text()
	if !strings.Contains(desktop, "/opt/sb/switchboard") || !strings.Contains(desktop, `"SWITCHBOARD_CLIENT_TOKEN": "`+views.ConnectTokenPlaceholder+`"`) {
		t.Errorf("claude desktop snippet:\n%s", desktop)
	}
}

func TestConnectTokensOffInTheDemo(t *testing.T) {
	doc := renderComponent(t, "zh-Hans", views.ConnectTokens(views.ConnectTokensProps{}))
	if doc.Find(`[data-testid="connect-tokens-off"]`).Length() != 1 || doc.Find(`form`).Length() != 0 {
		t.Errorf("without client tokens: want the notice and no form")
	}
}

func TestConnectTokenErrorIsAnnounced(t *testing.T) {
	doc := renderComponent(t, "en", views.ConnectTokens(views.ConnectTokensProps{Enabled: true, Error: "ConnectTokenErrTaken", Name: "cursor"}))
	msg := doc.Find(`[data-testid="connect-token-error"][role="alert"]`)
	if !strings.Contains(msg.Text(), "already exists") {
		t.Errorf("error: got %q", msg.Text())
	}
	in := doc.Find(`[data-testid="connect-token-name"]`)
	if v, _ := in.Attr("value"); v != "cursor" {
		t.Errorf("field keeps the name: got %q", v)
	}
	if v, _ := in.Attr("aria-invalid"); v != "true" {
		t.Errorf("aria-invalid: got %q", v)
	}
}
