//go:build e2e

package e2e

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// readNotFound checks a read of a torn-down connection: after a restart
// the server no longer has the resource an earlier card links to, so
// reading it gets JSON-RPC -32602 "Resource … not found". That refuses
// the one read; the server stays connected with the same connectedAt.
func readNotFound(t *testing.T, in *instance, l *invLog, server string, link sbOutcome) {
	t.Helper()
	if link.refused != "" || link.status != "success" {
		t.Fatalf("the gzip-file-as-resource call that makes the link: %s %s %s", link.status, link.err, link.refused)
	}
	var r struct {
		Content []struct {
			Type string `json:"type"`
			URI  string `json:"uri"`
		} `json:"content"`
	}
	if err := json.Unmarshal(link.result, &r); err != nil || len(r.Content) == 0 || r.Content[0].Type != "resource_link" {
		t.Fatalf("gzip-file-as-resource result holds no resource_link: %s", clip(link.result))
	}
	uri := r.Content[0].URI

	mark := in.events.len()
	in.post(t, server, "restart")
	_, before := in.waitStateAfter(t, mark, server, "connected")
	if before.ConnectedAt == nil {
		t.Fatalf("%s is connected but has no connectedAt: %v", server, before)
	}
	mark = in.events.len()

	code, body, via := readResource(t, in, server, link.id, uri)
	t.Logf("read %s via %s: %d %s", uri, via, code, clip([]byte(body)))
	if code != http.StatusBadGateway {
		t.Errorf("read of a resource the server no longer has (via %s): got %d %s, want 502 with the server's message", via, code, clip([]byte(body)))
	}
	if want := "Resource " + uri + " not found"; !strings.Contains(body, want) {
		t.Errorf("read of a resource the server no longer has (via %s): the answer does not carry the server's message %q: %s", via, want, clip([]byte(body)))
	}

	// The connection is still the one it was: a call works, no snapshot
	// since the read left connected, and connectedAt did not move.
	echo := callThrough(t, in, l, server, parityCall{"echo", map[string]any{"message": "still here"}})
	if echo.status != "success" {
		t.Errorf("echo after the failed read: got %s %s %s, want success", echo.status, echo.err, echo.refused)
	}
	for _, s := range in.events.since(mark) {
		if s.ServerName == server && s.State != "connected" {
			t.Errorf("%s left connected after one failed read: %v", server, s)
		}
	}
	after, ok := in.server(t, server)
	if !ok {
		t.Fatalf("server %s is gone", server)
	}
	if after.State != "connected" || after.ConnectedAt == nil || *after.ConnectedAt != *before.ConnectedAt {
		t.Errorf("%s after the failed read: got %v connectedAt %v, want connected with connectedAt %d", server, after.status, ptrVal(after.ConnectedAt), *before.ConnectedAt)
	}
}

// readResource reads uri through the read API, GET
// /api/v1/servers/{name}/resources/read?uri=, or, while this build has no
// such route, through the dashboard's preview of invocation id's link.
func readResource(t *testing.T, in *instance, server, id, uri string) (code int, body, via string) {
	t.Helper()
	get := func(path string) (int, string) {
		resp, err := http.Get(in.URL + path)
		if err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	api := "/api/v1/servers/" + url.PathEscape(server) + "/resources/read?uri=" + url.QueryEscape(uri)
	code, body = get(api)
	var e struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if code == http.StatusNotFound && json.Unmarshal([]byte(body), &e) == nil && e.Error.Message == "Not Found" {
		preview := "/ui/invocations/" + url.PathEscape(id) + "/read?uri=" + url.QueryEscape(uri)
		code, body = get(preview)
		return code, body, "the dashboard preview (no read API in this build)"
	}
	return code, body, "the read API"
}

func ptrVal(p *int64) any {
	if p == nil {
		return nil
	}
	return *p
}
