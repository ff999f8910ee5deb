package mcpserver

import (
	"encoding/json"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
)

// An elicitation is put to a client only in a mode it declared: forms to
// a client that declared elicitation with no mode (the form-only clients
// from before URL mode) or with form; URL mode only to one that declared
// url.
func TestElicitationModesTheClientDeclared(t *testing.T) {
	empty, form, url := &mcp.ElicitationCapability{}, &mcp.ElicitationCapability{Form: &struct{}{}}, &mcp.ElicitationCapability{URL: &struct{}{}}
	formReq := json.RawMessage(`{"message":"name?","requestedSchema":{"type":"object"}}`)
	urlReq := json.RawMessage(`{"mode":"url","message":"sign in","url":"https://example.com","elicitationId":"1"}`)
	for _, tc := range []struct {
		name   string
		caps   *mcp.ElicitationCapability
		params json.RawMessage
		asked  bool
	}{
		{"none/form", nil, formReq, false},
		{"empty/form", empty, formReq, true},
		{"empty/url", empty, urlReq, false},
		{"form/form", form, formReq, true},
		{"form/url", form, urlReq, false},
		{"url/url", url, urlReq, true},
		{"url/form", url, formReq, false},
	} {
		h := &heldCall{client: domain.ClientIdentity{Name: "c", Version: "1"}, caps: mcp.ClientCapabilities{Elicitation: tc.caps}}
		why := h.lacks(domain.ServerRequest{Method: domain.MethodElicit, Params: tc.params})
		if (why == "") != tc.asked {
			t.Errorf("%s: lacks = %q, want asked %v", tc.name, why, tc.asked)
		}
	}
}
