//go:build e2e

package e2e

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"testing"
)

// detail is GET /api/v1/servers/{name}.
type detail struct {
	status
	Capabilities struct {
		Tools             []tool            `json:"tools"`
		Resources         []json.RawMessage `json:"resources"`
		ResourceTemplates []json.RawMessage `json:"resourceTemplates"`
		Prompts           []json.RawMessage `json:"prompts"`
	} `json:"capabilities"`
	Stderr []string `json:"stderr"`
}

// tool is the part of a tool the tests compare with the drawer.
type tool struct {
	Name        string `json:"name"`
	RiskTier    string `json:"riskTier"`
	Annotations struct {
		ReadOnlyHint    *bool `json:"readOnlyHint"`
		DestructiveHint *bool `json:"destructiveHint"`
		IdempotentHint  *bool `json:"idempotentHint"`
		OpenWorldHint   *bool `json:"openWorldHint"`
	} `json:"annotations"`
}

// server fetches one server's detail; ok is false on 404.
func (in *instance) server(t *testing.T, name string) (d detail, ok bool) {
	t.Helper()
	resp, err := http.Get(in.URL + "/api/v1/servers/" + url.PathEscape(name))
	if err != nil {
		t.Fatalf("GET server %s: %v", name, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	switch resp.StatusCode {
	case http.StatusNotFound:
		return d, false
	case http.StatusOK:
	default:
		t.Fatalf("GET server %s: got %s %s, want 200", name, resp.Status, body)
	}
	if err := json.Unmarshal(body, &d); err != nil {
		t.Fatalf("decode server %s: %v", name, err)
	}
	return d, true
}

// post calls a server action of the API (restart, disable, enable).
func (in *instance) post(t *testing.T, name, action string) {
	t.Helper()
	resp, err := http.Post(in.URL+"/api/v1/servers/"+url.PathEscape(name)+"/"+action, "application/json", nil)
	if err != nil {
		t.Fatalf("POST %s %s: %v", action, name, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		body, _ := io.ReadAll(resp.Body)
		t.Fatalf("POST %s %s: got %s %s, want 202", action, name, resp.Status, body)
	}
}
