package domain_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDomainImportsOnlyStandardLibrary keeps the core free of adapters:
// every rule in domain must be testable without a network, database or
// browser.
func TestDomainImportsOnlyStandardLibrary(t *testing.T) {
	const self = "github.com/switchboard-mcp/switchboard/domain"
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", self).CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if pkg != self {
			t.Errorf("domain depends on %s; it may import only the standard library", pkg)
		}
	}
}
