//go:build e2e

package e2e

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// TestConnectPageListsSessions: an AI client connected with a client token
// appears on the Connect page with its name, version and the token's
// name; axe-clean.
func TestConnectPageListsSessions(t *testing.T) {
	in := startWith(t, servers{"alpha": demoStdio("alpha", nil)})
	in.waitState(t, "alpha", "connected")
	resp, err := http.Post(in.URL+"/api/v1/client-tokens", "application/json", strings.NewReader(`{"name":"laptop"}`))
	if err != nil {
		t.Fatal(err)
	}
	var created struct {
		Token string `json:"token"`
	}
	err = json.NewDecoder(resp.Body).Decode(&created)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusCreated || created.Token == "" {
		t.Fatalf("create client token: got %d, %v", resp.StatusCode, err)
	}
	tr, err := transport.NewStreamableHTTP(in.URL+"/mcp",
		transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + created.Token}))
	if err != nil {
		t.Fatal(err)
	}
	c := client.NewClient(tr, client.WithProtocolVersion("2025-11-25"))
	if err := c.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: "e2e-client", Version: "4.5.6"}
	if _, err := c.Initialize(t.Context(), init); err != nil {
		t.Fatal(err)
	}

	page := open(t, in)
	click(t, page, `[data-testid="header"] [data-testid="connect-link"]`)
	row := `[data-testid="connect-session"][data-legacy="true"]:has([data-testid="connect-session-name"]:text-is("e2e-client")):has([data-testid="connect-session-token"]:text-is("laptop"))`
	waitVisible(t, page, row, "the client's session on the Connect page")
	checkAxe(t, page, "connect page with a session")
}
