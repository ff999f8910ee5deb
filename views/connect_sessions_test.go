package views_test

import (
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

func TestConnectSessionsRender(t *testing.T) {
	since := time.Date(2026, 12, 1, 9, 30, 0, 0, time.UTC)
	p := views.NewConnectSessionsProps([]domain.GatewayClient{
		{Legacy: true, SessionID: "s1", Endpoint: "/mcp", Client: domain.ClientIdentity{Name: "claude-code", Version: "2.1", Token: "laptop"}, Since: since, Calls: 3},
		{Endpoint: "/mcp/fs", Client: domain.ClientIdentity{Version: "1"}, Since: since},
	})
	for _, lang := range []string{"en", "pt-BR", "zh-Hans"} {
		t.Run(lang, func(t *testing.T) {
			doc := renderDrawerPart(t, lang, views.ConnectSessions(p))
			sec := doc.Find(`[data-testid="connect-sessions"]`)
			if sec.Length() != 1 || sec.AttrOr("aria-labelledby", "") == "" {
				t.Fatal("want one labelled section")
			}
			rows := doc.Find(`[data-testid="connect-session"]`)
			if rows.Length() != 2 || rows.First().AttrOr("data-legacy", "") != "true" {
				t.Fatalf("got %d rows, want 2 with the legacy session first", rows.Length())
			}
			if got := rows.First().Find(`[data-testid="connect-session-calls"]`).Text(); got != "3" {
				t.Errorf("calls: got %q, want 3", got)
			}
			if got := rows.Last().Find(`[data-testid="connect-session-name"]`).Text(); got == "" {
				t.Error("an unnamed client: got an empty cell, want the unnamed label")
			}
			if got := rows.First().Find("time").AttrOr("datetime", ""); got != "2026-12-01T09:30:00Z" {
				t.Errorf("since: got %q", got)
			}
		})
	}
	if doc := renderDrawerPart(t, "en", views.ConnectSessions(views.ConnectSessionsProps{})); doc.Find(`[data-testid="connect-sessions"]`).Length() != 0 {
		t.Error("without a gateway: got the section, want nothing")
	}
	if doc := renderDrawerPart(t, "en", views.ConnectSessions(views.NewConnectSessionsProps(nil))); doc.Find(`[data-testid="connect-sessions-empty"]`).Length() != 1 {
		t.Error("no clients: want the empty note")
	}
}
