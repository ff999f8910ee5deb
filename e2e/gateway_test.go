//go:build e2e

package e2e

import (
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// everythingCalls are server-everything calls whose answers carry text,
// an image, structured content and annotated content.
var everythingCalls = []gatewayCall{
	{Name: "echo", Arguments: map[string]any{"message": "through the gateway"}},
	{Name: "get-tiny-image"},
	{Name: "get-sum", Arguments: map[string]any{"a": 2, "b": 3}},
	{Name: "get-annotated-message", Arguments: map[string]any{"messageType": "success", "includeImage": true}},
}

// TestGatewayLegacyClient drives the gateway with the official TypeScript
// SDK v1 client over /mcp and /mcp/{server}: the tools are listed under
// their exposed names, and every call answers exactly what the server
// answers a client of its own, and appears as a gateway card.
func TestGatewayLegacyClient(t *testing.T) {
	in := startWith(t, servers{"everything": everythingStdio(t)})
	in.waitState(t, "everything", "connected")

	// The same server without Switchboard, for what its answers should be.
	direct := make(chan directResult, 1)
	directErr := make(chan error, 1)
	spec := directSpec{Command: "node", Args: everythingStdio(t)["args"].([]string)}
	for _, c := range everythingCalls {
		spec.Calls = append(spec.Calls, parityCall{Name: c.Name, Arguments: c.Arguments})
	}
	go func() {
		r, err := runDirect(spec)
		direct <- r
		directErr <- err
	}()

	prefixed := make([]gatewayCall, len(everythingCalls))
	for i, c := range everythingCalls {
		prefixed[i] = gatewayCall{Name: "everything__" + c.Name, Arguments: c.Arguments}
	}
	agg, err := runGatewayClient("v1.mjs", gatewaySpec{URL: in.URL + "/mcp", Token: in.Token, Calls: prefixed})
	if err != nil {
		t.Fatal(err)
	}
	per, err := runGatewayClient("v1.mjs", gatewaySpec{URL: in.URL + "/mcp/everything", Token: in.Token, Calls: everythingCalls})
	if err != nil {
		t.Fatal(err)
	}
	if names := agg.toolNames(); !slices.Contains(names, "everything__echo") || !slices.Contains(names, "everything__get-tiny-image") {
		t.Errorf("/mcp tools: got %v, want everything__echo and everything__get-tiny-image among them", names)
	}
	for _, name := range agg.toolNames() {
		if !strings.HasPrefix(name, "everything__") || len(name) > 48 {
			t.Errorf("/mcp tool %q: want everything__ prefixed and at most 48 characters", name)
		}
	}
	if names := per.toolNames(); !slices.Contains(names, "echo") {
		t.Errorf("/mcp/everything tools: got %v, want echo among them", names)
	}

	want := <-direct
	if err := <-directErr; err != nil {
		t.Fatal(err)
	}
	for i, c := range everythingCalls {
		for _, got := range []struct {
			endpoint string
			answer   gatewayAnswer
		}{{"/mcp", agg.Calls[i]}, {"/mcp/everything", per.Calls[i]}} {
			if got.answer.Error != nil {
				t.Errorf("%s %s: got error %+v", got.endpoint, c.Name, got.answer.Error)
				continue
			}
			if !sameJSON(got.answer.Result, want.Calls[i].Result) {
				t.Errorf("%s %s:\n got  %s\n want %s (the server's own answer)", got.endpoint, c.Name, clip(got.answer.Result), clip(want.Calls[i].Result))
			}
		}
	}
	if !strings.Contains(string(agg.Calls[1].Result), `"type":"image"`) {
		t.Errorf("get-tiny-image: got %s, want an image item", clip(agg.Calls[1].Result))
	}

	// Every call is a card, recorded as the gateway's with its client.
	var list struct {
		Invocations []struct {
			Tool   string `json:"tool"`
			Source string `json:"source"`
			Client *struct {
				Name string `json:"name"`
			} `json:"client"`
		} `json:"invocations"`
	}
	deadline := time.Now().Add(gatewayPatience)
	for {
		apiGet(t, in, "/api/v1/invocations", &list)
		n := 0
		for _, inv := range list.Invocations {
			if inv.Source == "gateway" && inv.Client != nil && inv.Client.Name == "gateway-e2e-v1" {
				n++
			}
		}
		if n == 2*len(everythingCalls) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("gateway cards: got %d, want %d: %+v", n, 2*len(everythingCalls), list.Invocations)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestGatewayRefusesStrangers answers a request without the token 401
// (with a bearer challenge) and one from another site's page 403.
func TestGatewayRefusesStrangers(t *testing.T) {
	in := startWith(t, servers{"everything": everythingStdio(t)})
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
	plain := &http.Client{Transport: &http.Transport{}}
	for _, tc := range []struct {
		name, path, auth, origin string
		want                     int
	}{
		{"no-token", "/mcp", "", "", http.StatusUnauthorized},
		{"wrong-token", "/mcp/everything", "Bearer not-the-token-not-the-token-not-it", "", http.StatusUnauthorized},
		{"foreign-origin", "/mcp", "Bearer " + in.Token, "http://evil.example", http.StatusForbidden},
		{"foreign-origin-get", "/mcp/everything", "Bearer " + in.Token, "http://evil.example", http.StatusForbidden},
		{"own-origin", "/mcp", "Bearer " + in.Token, in.URL, http.StatusOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			method := http.MethodPost
			if strings.HasSuffix(tc.name, "-get") {
				method = http.MethodGet
			}
			req, _ := http.NewRequestWithContext(t.Context(), method, in.URL+tc.path, strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if tc.auth != "" {
				req.Header.Set("Authorization", tc.auth)
			}
			if tc.origin != "" {
				req.Header.Set("Origin", tc.origin)
			}
			res, err := plain.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			if res.StatusCode != tc.want {
				t.Fatalf("got %d %s, want %d", res.StatusCode, clip(b), tc.want)
			}
			if tc.want == http.StatusUnauthorized && !strings.HasPrefix(res.Header.Get("WWW-Authenticate"), "Bearer") {
				t.Errorf("WWW-Authenticate: got %q, want a Bearer challenge", res.Header.Get("WWW-Authenticate"))
			}
		})
	}
}

// TestGatewayModernClient drives the gateway with the official TypeScript
// SDK v2 client pinned to 2026-07-28, in front of server-everything, which
// speaks 2025 only: the gateway ends the client's protocol and speaks the
// server's own upstream.
func TestGatewayModernClient(t *testing.T) {
	in := startWith(t, servers{"everything": everythingStdio(t)})
	in.waitState(t, "everything", "connected")
	calls := everythingCalls[:2] // echo and get-tiny-image
	for _, tc := range []struct {
		path   string
		prefix string
	}{{"/mcp", "everything__"}, {"/mcp/everything", ""}} {
		t.Run(strings.TrimPrefix(tc.path, "/"), func(t *testing.T) {
			var named []gatewayCall
			for _, c := range calls {
				named = append(named, gatewayCall{Name: tc.prefix + c.Name, Arguments: c.Arguments})
			}
			got, err := runGatewayClient("v2.mjs", gatewaySpec{URL: in.URL + tc.path, Token: in.Token, Calls: named})
			if err != nil {
				t.Fatal(err)
			}
			if got.ProtocolVersion != "2026-07-28" {
				t.Errorf("protocol: got %q, want 2026-07-28", got.ProtocolVersion)
			}
			if names := got.toolNames(); !slices.Contains(names, tc.prefix+"echo") {
				t.Errorf("tools: got %v, want %secho among them", names, tc.prefix)
			}
			var echo struct {
				Content []struct {
					Type string `json:"type"`
					Text string `json:"text"`
				} `json:"content"`
			}
			if got.Calls[0].Error != nil {
				t.Fatalf("echo: got error %+v", got.Calls[0].Error)
			}
			_ = json.Unmarshal(got.Calls[0].Result, &echo)
			if len(echo.Content) != 1 || !strings.Contains(echo.Content[0].Text, "through the gateway") {
				t.Errorf("echo: got %s", clip(got.Calls[0].Result))
			}
			if got.Calls[1].Error != nil || !strings.Contains(string(got.Calls[1].Result), `"type":"image"`) {
				t.Errorf("get-tiny-image: got %s %+v, want an image item", clip(got.Calls[1].Result), got.Calls[1].Error)
			}
		})
	}
	var list struct {
		Invocations []struct {
			Source string `json:"source"`
			Client *struct {
				Name string `json:"name"`
			} `json:"client"`
		} `json:"invocations"`
	}
	apiGet(t, in, "/api/v1/invocations", &list)
	n := 0
	for _, inv := range list.Invocations {
		if inv.Source == "gateway" && inv.Client != nil && inv.Client.Name == "gateway-e2e-v2" {
			n++
		}
	}
	if n != 2*len(calls) {
		t.Errorf("cards of gateway-e2e-v2: got %d, want %d", n, 2*len(calls))
	}
}
