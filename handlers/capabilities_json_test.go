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

// Resources, templates and prompts are written as the server sent them
// too, and from their fields only when their object is not known.
func TestListEntriesAreWrittenAsTheServerSentThem(t *testing.T) {
	res := `{"uri":"x://a","name":"a","icons":[{"src":"https://x/a.png"}],"_meta":{"k":1}}`
	tpl := `{"uriTemplate":"x://{id}","name":"t","x-new":true}`
	pr := `{"name":"greet","arguments":[{"name":"who","title":"Who"}],"_meta":{"k":2}}`
	caps := domain.Capabilities{
		Resources:         []domain.Resource{{URI: "x://a", Name: "a", Raw: []byte(res)}, {URI: "x://b", Name: "b"}},
		ResourceTemplates: []domain.ResourceTemplate{{URITemplate: "x://{id}", Name: "t", Raw: []byte(tpl)}},
		Prompts:           []domain.Prompt{{Name: "greet", Raw: []byte(pr)}},
	}
	out, err := json.Marshal(handlers.CapabilitiesJSON(caps))
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Resources, ResourceTemplates, Prompts []json.RawMessage
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%s: %v", out, err)
	}
	for _, c := range []struct{ got, want string }{
		{string(got.Resources[0]), res},
		{string(got.Resources[1]), `{"uri":"x://b","name":"b","title":"","description":"","mimeType":"","size":null}`},
		{string(got.ResourceTemplates[0]), tpl},
		{string(got.Prompts[0]), pr},
	} {
		if c.got != c.want {
			t.Errorf("got %s, want %s", c.got, c.want)
		}
	}
}
