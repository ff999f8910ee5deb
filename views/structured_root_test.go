package views_test

import (
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

// A structured result that breaks its output schema as a whole is placed
// at "(root)", never at an empty place (": missing property …").
func TestStructuredContentRootViolationSaysRoot(t *testing.T) {
	tool := &domain.Tool{Name: "echo", OutputSchema: []byte(`{"type":"object","required":["unit"]}`)}
	inv := invAt(domain.InvocationSuccess, `{"content":[],"structuredContent":{"temperature":21}}`)
	inv.OutputViolations = []domain.Violation{{Pointer: "", Message: "missing property 'unit'"}}
	card := renderCard(t, inv, views.CardInput{Tool: tool})
	got := card.Find(`[data-testid="content-schema-warning"]`).Text()
	if !strings.Contains(got, "(root): missing property 'unit'") {
		t.Errorf("schema warning: got %q, want the violation at (root)", got)
	}
}
