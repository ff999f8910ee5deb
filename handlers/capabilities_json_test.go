package handlers_test

import (
	"encoding/json"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/handlers"
)

// A tool is written as the server sent it, with riskTier added: nothing
// it had is lost and nothing it lacked (an annotation title, an output
// schema) appears.
func TestToolsAreWrittenAsTheServerSentThem(t *testing.T) {
	raw := `{"name":"research","inputSchema":{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","additionalProperties":false},` +
		`"annotations":{"readOnlyHint":true},"execution":{"taskSupport":"required"},"icons":[{"src":"https://x/i.png"}],"_meta":{"k":[1]},"x-new":1}`
	caps := domain.Capabilities{Tools: []domain.Tool{
		{Name: "research", Raw: []byte(raw), Annotations: domain.Annotations{ReadOnlyHint: ptr(true)}},
		{Name: "empty", Raw: []byte(` {} `)},
		{Name: "old", InputSchema: []byte(`{"type":"object"}`)},
		{Name: "broken", Raw: []byte(`{"name":`), InputSchema: []byte(`{"type":"object"}`)},
	}}
	out, err := json.Marshal(handlers.CapabilitiesJSON(caps).Tools)
	if err != nil {
		t.Fatal(err)
	}
	var got []json.RawMessage
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%s: %v", out, err)
	}
	want := []string{
		raw[:len(raw)-1] + `,"riskTier":"low"}`,
		`{"riskTier":"medium"}`,
		`{"name":"old","title":"","description":"","inputSchema":{"type":"object"},"outputSchema":null,"annotations":{"title":"","readOnlyHint":null,"destructiveHint":null,"idempotentHint":null,"openWorldHint":null},"riskTier":"medium"}`,
		`{"name":"broken","title":"","description":"","inputSchema":{"type":"object"},"outputSchema":null,"annotations":{"title":"","readOnlyHint":null,"destructiveHint":null,"idempotentHint":null,"openWorldHint":null},"riskTier":"medium"}`,
	}
	if len(got) != len(want) {
		t.Fatalf("got %d tools, want %d: %s", len(got), len(want), out)
	}
	for i := range want {
		if string(got[i]) != want[i] {
			t.Errorf("tool %d:\n got %s\nwant %s", i, got[i], want[i])
		}
	}
}
