package handlers_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/handlers"
)

// The oauth key is part of what a person approves: its client identity and
// scopes are shown as written, the client secret redacted but for the
// variables it reads.
func TestApprovalJSONShowsTheOAuthKey(t *testing.T) {
	cfg := hostileProj(t, `{"url": "https://mcp.example.com/mcp", "oauth": {"clientId": "cid-${SOME_SECRET}",
		"clientSecret": "literal-shh-${SOME_SECRET}", "clientMetadataUrl": "https://app.example.com/client.json", "scopes": ["read", "admin:*"]}}`)
	dto := handlers.ApprovalJSON(domain.NewApprovalRequest(cfg, "/p", nil))
	o := dto.Written.OAuth
	if o == nil {
		t.Fatalf("written: got %+v, want the oauth key", dto.Written)
	}
	if o.ClientID != "cid-${SOME_SECRET}" || o.ClientMetadataURL != "https://app.example.com/client.json" ||
		!slices.Equal(o.Scopes, []string{"read", "admin:*"}) {
		t.Errorf("oauth: got %+v", o)
	}
	if want := domain.Redacted + "${SOME_SECRET}"; o.ClientSecret != want {
		t.Errorf("clientSecret: got %q, want %q", o.ClientSecret, want)
	}
	b, err := json.Marshal(dto)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "shh") || strings.Contains(string(b), "LEAK") {
		t.Errorf("the answer holds a secret: %s", b)
	}

	plain := hostileProj(t, `{"url": "https://mcp.example.com/mcp"}`)
	if b, _ := json.Marshal(handlers.ApprovalJSON(domain.NewApprovalRequest(plain, "/p", nil))); strings.Contains(string(b), `"oauth"`) {
		t.Errorf("an entry without oauth shows one: %s", b)
	}
}
