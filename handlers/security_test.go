package handlers_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/handlers"
)

func TestHostAndOriginGuard(t *testing.T) {
	f := newFixture(t)
	f.connect(t, stdio("files"), domain.Capabilities{})
	disable := handlers.ServerPath(handlers.PathServerDisable, "files")

	for _, tc := range []struct {
		name, method, path, host, origin string
		wantStatus                       int
		wantCode                         string
	}{
		{"loopback-ip-any-port", "GET", handlers.PathHealth, "127.0.0.1:49152", "", 200, ""},
		{"localhost-no-port", "GET", handlers.PathHealth, "localhost", "", 200, ""},
		{"localhost-upper-case", "GET", handlers.PathHealth, "LOCALHOST:8080", "", 200, ""},
		{"ipv6-loopback", "GET", handlers.PathHealth, "[::1]:8080", "", 200, ""},
		{"configured-host-port", "GET", handlers.PathHealth, "switchboard.test:8080", "", 200, ""},
		{"configured-bare-host", "GET", handlers.PathHealth, "switchboard.test", "", 200, ""},
		{"configured-host-other-port", "GET", handlers.PathHealth, "switchboard.test:9999", "", 403, "forbidden_host"},
		{"rebinding-name", "GET", handlers.PathServers, "evil.example", "", 403, "forbidden_host"},
		{"rebinding-name-with-port", "GET", handlers.PathServers, "evil.example:8080", "", 403, "forbidden_host"},
		{"localhost-as-subdomain-prefix", "GET", handlers.PathServers, "localhost.evil.example", "", 403, "forbidden_host"},
		{"loopback-lookalike", "GET", handlers.PathServers, "127.0.0.1.nip.io", "", 403, "forbidden_host"},
		{"unknown-path-still-guarded", "GET", "/nope", "evil.example", "", 403, "forbidden_host"},
		{"post-without-origin", "POST", disable, "127.0.0.1:8080", "", 202, ""},
		{"post-same-origin", "POST", disable, "127.0.0.1:8080", "http://127.0.0.1:8080", 202, ""},
		{"post-configured-origin", "POST", disable, "switchboard.test:8080", "http://switchboard.test:8080", 202, ""},
		{"post-cross-origin", "POST", disable, "127.0.0.1:8080", "http://evil.example", 403, "forbidden_origin"},
		{"post-other-local-port", "POST", disable, "127.0.0.1:8080", "http://127.0.0.1:3000", 403, "forbidden_origin"},
		{"post-opaque-origin", "POST", disable, "127.0.0.1:8080", "null", 403, "forbidden_origin"},
		{"delete-cross-origin", "DELETE", handlers.ServerPath(handlers.PathServer, "files"), "localhost:8080", "https://evil.example", 403, "forbidden_origin"},
		{"get-cross-origin-reads-are-left-to-cors", "GET", handlers.PathHealth, "localhost:8080", "http://evil.example", 200, ""},
		{"post-origin-other-scheme", "POST", disable, "127.0.0.1:8080", "ftp://127.0.0.1:8080", 403, "forbidden_origin"},
		{"post-origin-with-userinfo", "POST", disable, "127.0.0.1:8080", "http://evil.example@127.0.0.1:8080", 403, "forbidden_origin"},
		{"post-origin-with-path", "POST", disable, "127.0.0.1:8080", "http://127.0.0.1:8080/path", 403, "forbidden_origin"},
		{"post-sec-fetch-cross-site", "POST", disable, "127.0.0.1:8080", "", 403, "forbidden_origin"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := authorize(httptest.NewRequest(tc.method, tc.path, nil))
			req.Host = tc.host
			if tc.origin != "" {
				req.Header.Set("Origin", tc.origin)
			}
			if strings.HasSuffix(tc.name, "sec-fetch-cross-site") {
				req.Header.Set("Sec-Fetch-Site", "cross-site")
			}
			rec := httptest.NewRecorder()
			f.echo.ServeHTTP(rec, req)
			if tc.wantCode != "" {
				wantError(t, rec.Code, rec.Body.Bytes(), tc.wantStatus, tc.wantCode)
			} else if rec.Code != tc.wantStatus {
				t.Errorf("status: got %d, want %d; body: %s", rec.Code, tc.wantStatus, rec.Body)
			}
			for key, want := range map[string]string{
				"X-Content-Type-Options": "nosniff",
				"Referrer-Policy":        "no-referrer",
				"X-Frame-Options":        "DENY", // no page of another site may frame the dashboard
			} {
				if got := rec.Header().Get(key); got != want {
					t.Errorf("header %s: got %q, want %q", key, got, want)
				}
			}
		})
	}

	if st, _ := f.fleet.Status("files"); st.State != domain.StateDisabled {
		t.Errorf("files after the allowed disables: got state %q, want disabled", st.State)
	}
	if _, err := f.fleet.Status("files"); err != nil {
		t.Errorf("files after a cross-origin DELETE: %v; want it still there", err)
	}
}

func TestForeignHostOverTheWire(t *testing.T) {
	f := newFixture(t)
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, f.srv.URL+handlers.PathServers, nil)
	if err != nil {
		t.Fatalf("new request: %v", err)
	}
	req.Host = "evil.example"
	resp, err := f.srv.Client().Do(req)
	if err != nil {
		t.Fatalf("GET: %v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("status: got %d, want 403", resp.StatusCode)
	}
	if recs := f.logs.records(t, "request failed"); len(recs) != 1 || recs[0]["code"] != "forbidden_host" {
		t.Errorf("log records: got %v, want one forbidden_host", recs)
	}
}
