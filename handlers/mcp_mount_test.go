package handlers_test

import (
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/handlers"
)

// fakeGateway answers every MCP request with the endpoint it reached and
// the token name the request carried.
type fakeGateway struct{}

func (fakeGateway) endpoint(name string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, name+" "+handlers.MCPTokenName(r.Context()))
	})
}

func (g fakeGateway) Aggregated() http.Handler { return g.endpoint("all") }

func (fakeGateway) Refresh() {}

func (fakeGateway) Catalogue() *domain.Catalogue { return nil }

func (fakeGateway) Clients() []domain.GatewayClient { return nil }

func (fakeGateway) CloseToken(string) {}

func (g fakeGateway) Server(name string) (http.Handler, bool) {
	if name != "fs" && name != "a/b" {
		return nil, false
	}
	return g.endpoint(name), true
}

func TestMCPMount(t *testing.T) {
	f := newFixture(t, func(o *handlers.Options) { o.Gateway = fakeGateway{} })
	plain := &http.Client{}
	tests := []struct {
		name, method, path, auth, origin string
		want                             int
		body                             string
	}{
		{"aggregated", http.MethodPost, "/mcp", "Bearer " + fixtureToken, "", http.StatusOK, "all owner"},
		{"per-server", http.MethodGet, "/mcp/fs", "Bearer " + fixtureToken, "", http.StatusOK, "fs owner"},
		{"escaped-server-name", http.MethodGet, "/mcp/a%2Fb", "Bearer " + fixtureToken, "", http.StatusOK, "a/b owner"},
		{"unknown-server", http.MethodGet, "/mcp/nobody", "Bearer " + fixtureToken, "", http.StatusNotFound, ""},
		{"no-token", http.MethodPost, "/mcp", "", "", http.StatusUnauthorized, ""},
		{"foreign-origin-post", http.MethodPost, "/mcp", "Bearer " + fixtureToken, "http://evil.example", http.StatusForbidden, ""},
		{"foreign-origin-get", http.MethodGet, "/mcp/fs", "Bearer " + fixtureToken, "http://evil.example", http.StatusForbidden, ""},
		{"own-origin", http.MethodGet, "/mcp", "Bearer " + fixtureToken, "SELF", http.StatusOK, "all owner"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequestWithContext(t.Context(), tt.method, f.srv.URL+tt.path, strings.NewReader("{}"))
			if tt.auth != "" {
				req.Header.Set("Authorization", tt.auth)
			}
			if tt.origin == "SELF" {
				req.Header.Set("Origin", f.srv.URL)
			} else if tt.origin != "" {
				req.Header.Set("Origin", tt.origin)
			}
			res, err := plain.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			if res.StatusCode != tt.want {
				t.Fatalf("got %d %s, want %d", res.StatusCode, b, tt.want)
			}
			if tt.body != "" && string(b) != tt.body {
				t.Errorf("body: got %q, want %q", b, tt.body)
			}
		})
	}
}

// readingGateway's endpoints read the whole body, as mcp-go does, and say
// how much they got or why they could not.
type readingGateway struct{ fakeGateway }

func (readingGateway) Aggregated() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, err := io.Copy(io.Discard, r.Body)
		if err != nil {
			http.Error(w, "too large", http.StatusRequestEntityTooLarge)
			return
		}
		_, _ = io.WriteString(w, strconv.FormatInt(n, 10))
	})
}

// An AI client's message is read up to MaxMCPRequestBytes and no further.
func TestMCPRequestBodyIsBounded(t *testing.T) {
	f := newFixture(t, func(o *handlers.Options) { o.Gateway = readingGateway{} })
	for _, tc := range []struct {
		size int64
		want int
	}{
		{handlers.MaxMCPRequestBytes, http.StatusOK},
		{handlers.MaxMCPRequestBytes + 1, http.StatusRequestEntityTooLarge},
	} {
		body := io.LimitReader(zeros{}, tc.size)
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, f.srv.URL+"/mcp", body)
		req.Header.Set("Authorization", "Bearer "+fixtureToken)
		res, err := (&http.Client{}).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != tc.want {
			t.Errorf("%d bytes: got %d %s, want %d", tc.size, res.StatusCode, b, tc.want)
		}
	}
}

// zeros is an endless stream of zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
