package views_test

import (
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

func TestDrawerShowsWorkingDirectory(t *testing.T) {
	tests := []struct {
		name   string
		status func() domain.Status
		lang   string
		want   string // "" means no row at all
	}{
		{"stdio-shows-effective-dir", func() domain.Status {
			s := drawerConnected("files")
			s.WorkDir = "/home/ana/project"
			return s
		}, "en", "/home/ana/project"},
		{"stdio-without-dir-says-where", func() domain.Status { return drawerConnected("demo") }, "pt-BR", "o mesmo do Switchboard"},
		{"remote-has-no-row", func() domain.Status {
			s := drawerConnected("remote")
			s.Transport, s.Target = domain.TransportHTTP, "https://mcp.example.com/mcp"
			return s
		}, "en", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := renderDrawerPart(t, tt.lang, views.DrawerHeader(views.NewDrawerHeaderProps(tt.status()), false))
			dd := doc.Find(`[data-testid="drawer-workdir"]`)
			if tt.want == "" {
				if dd.Length() != 0 {
					t.Fatalf("got a working-directory row %q, want none", dd.Text())
				}
				return
			}
			if got := strings.TrimSpace(dd.Text()); got != tt.want {
				t.Errorf("working directory: got %q, want %q", got, tt.want)
			}
			if label := strings.TrimSpace(dd.Prev().Text()); label == "" || label == "DrawerWorkDir" {
				t.Errorf("label: got %q, want a translated label", label)
			}
		})
	}
}
