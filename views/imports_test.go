package views_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestViewsNeverSeeHTTPOrSQL keeps templates pure rendering: they get
// props, never a request, a router or a database.
func TestViewsNeverSeeHTTPOrSQL(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/switchboard-mcp/switchboard/views").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	forbidden := []string{"github.com/labstack/echo", "database/sql", "modernc.org/sqlite",
		"github.com/switchboard-mcp/switchboard/handlers", "github.com/switchboard-mcp/switchboard/mcpclient",
		"github.com/switchboard-mcp/switchboard/sqlite"}
	for _, pkg := range strings.Fields(string(out)) {
		for _, f := range forbidden {
			if strings.HasPrefix(pkg, f) {
				t.Errorf("views depends on %s", pkg)
			}
		}
	}
}
