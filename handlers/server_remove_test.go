package handlers_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/switchboard-mcp/switchboard/handlers"
)

// TestRemoveIsLogged: a person's Remove deletes an entry from their
// settings file, so each one, from the dashboard or the API, leaves one
// log line naming the server, the file and the way it came.
func TestRemoveIsLogged(t *testing.T) {
	f := newFixture(t, func(o *handlers.Options) { o.Scope = testScope })
	f.connect(t, stdio("files"), filesCaps())
	f.connect(t, stdio("notes"), filesCaps())

	if r := f.ui(t, http.MethodPost, handlers.ServerPath(handlers.PathUIRemove, "files"), url.Values{}, "en"); r.status != http.StatusOK {
		t.Fatalf("UI remove: got %d, want 200; body: %s", r.status, r.body)
	}
	if status, body := f.do(t, http.MethodDelete, handlers.ServerPath(handlers.PathServer, "notes"), nil); status != http.StatusNoContent {
		t.Fatalf("API remove: got %d, want 204; body: %s", status, body)
	}

	recs := f.logs.records(t, "server removed")
	if len(recs) != 2 {
		t.Fatalf("server removed records: got %d, want 2; log: %s", len(recs), f.logs.String())
	}
	want := []map[string]string{
		{"server": "files", "source": settingsPath, "via": "dashboard", "level": "INFO"},
		{"server": "notes", "source": settingsPath, "via": "api", "level": "INFO"},
	}
	for i, w := range want {
		for k, v := range w {
			if got := recs[i][k]; got != v {
				t.Errorf("record %d %s: got %v, want %q", i, k, got, v)
			}
		}
		if got := recs[i]["user"]; got != testScope.User {
			t.Errorf("record %d user: got %v, want %q", i, got, testScope.User)
		}
	}

	// A refused removal is logged by the error edge only, never as removed.
	f.do(t, http.MethodDelete, handlers.ServerPath(handlers.PathServer, "ghost"), nil)
	if n := len(f.logs.records(t, "server removed")); n != 2 {
		t.Errorf("after removing an unknown server: got %d records, want still 2", n)
	}
}
