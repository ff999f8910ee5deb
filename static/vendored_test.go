package static_test

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"testing"

	"github.com/switchboard-mcp/switchboard/static"
)

// TestVendoredScriptsMatchNPM keeps the vendored htmx files byte for byte
// equal to the pinned npm packages, so the version in a file's name is the
// version it holds. Without node_modules (no `npm ci` yet) it skips.
func TestVendoredScriptsMatchNPM(t *testing.T) {
	pairs := []struct{ vendored, npm string }{
		{"js/htmx-2.0.11.min.js", "../e2e/node_modules/htmx.org/dist/htmx.min.js"},
		{"js/htmx-ext-sse-2.2.4.js", "../e2e/node_modules/htmx-ext-sse/dist/sse.min.js"},
	}
	for _, p := range pairs {
		want, err := os.ReadFile(p.npm)
		if errors.Is(err, fs.ErrNotExist) {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s is missing under CI; run npm ci in e2e/", p.npm)
			}
			t.Skipf("%s is missing; run npm ci in e2e/", p.npm)
		}
		if err != nil {
			t.Fatal(err)
		}
		got, err := fs.ReadFile(static.FS, p.vendored)
		if err != nil {
			t.Fatalf("read embedded %s: %v", p.vendored, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: got %d bytes that differ from %s (%d bytes); copy it again", p.vendored, len(got), p.npm, len(want))
		}
	}
}
