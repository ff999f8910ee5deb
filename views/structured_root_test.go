package views_test

import (
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

// A structured result that breaks its output schema as a whole is said
// without a place: never at an empty place (": missing property …"),
// nor at an English "(root)".
func TestStructuredContentRootViolationSaysRoot(t *testing.T) {
	tool := &domain.Tool{Name: "echo", OutputSchema: []byte(`{"type":"object","required":["unit"]}`)}
	inv := invAt(domain.InvocationSuccess, `{"content":[],"structuredContent":{"temperature":21}}`)
	inv.OutputViolations = []domain.Violation{{Pointer: "", Message: "missing property 'unit'", Key: "SchemaRequired", Data: map[string]any{"Names": "unit", "Count": 1}}}
	card := renderCard(t, inv, views.CardInput{Tool: tool})
	got := strings.TrimSpace(card.Find(`[data-testid="content-schema-warning"] li`).Text())
	if got != "Missing required property: unit" {
		t.Errorf("schema warning: got %q, want the violation without a place", got)
	}
}
