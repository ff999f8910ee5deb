package views_test

import (
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

// The drawer says how a server's connection works in the page's language,
// beside the protocol version, and says nothing before one is negotiated.
func TestDrawerHeaderSaysTheProtocolEra(t *testing.T) {
	tests := []struct {
		lang, version, want string
	}{
		{"en", "2026-07-28", "stateless"},
		{"en", "2025-11-25", "session"},
		{"pt-BR", "2026-07-28", "sem estado"},
		{"zh-Hans", "2025-11-25", "会话"},
		{"en", "", ""},
	}
	for _, tt := range tests {
		s := domain.Status{ServerName: "a", State: domain.StateConnected, ProtocolVersion: tt.version, Transport: domain.TransportHTTP}
		doc := renderComponent(t, tt.lang, views.DrawerHeader(views.NewDrawerHeaderProps(s), false))
		era := doc.Find(`[data-testid="drawer-protocol-era"]`)
		if tt.want == "" {
			if era.Length() != 0 {
				t.Errorf("%s %q: era %q shown, want none", tt.lang, tt.version, era.Text())
			}
			continue
		}
		if got := strings.TrimSpace(era.Text()); !strings.Contains(got, tt.want) {
			t.Errorf("%s %q: era %q, want it to say %q", tt.lang, tt.version, got, tt.want)
		}
		if got := strings.TrimSpace(doc.Find(`[data-testid="drawer-protocol"]`).Text()); got != tt.version {
			t.Errorf("%s: protocol %q, want %q", tt.lang, got, tt.version)
		}
	}
}
