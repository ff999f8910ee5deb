//go:build e2e

package e2e

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestStdioBridgeParity has the official TypeScript SDK client start
// `switchboard stdio` as Claude Desktop would, and checks that it sees
// exactly what the same client sees talking to the server directly:
// every tool with its schemas, and every call's result (text, images,
// annotations, structured content, a call that reports progress). The
// bridge finds its endpoint through the data directory's instance file;
// the endpoint is server-everything behind a stand-in that answers the
// health check as Switchboard does, since the bridge speaks only the
// transport and must not care who serves it.
func TestStdioBridgeParity(t *testing.T) {
	ev := startEverything(t)
	upstream, err := url.Parse(ev.URL())
	if err != nil {
		t.Fatal(err)
	}
	proxy := &httputil.ReverseProxy{
		Rewrite:       func(pr *httputil.ProxyRequest) { pr.SetURL(&url.URL{Scheme: upstream.Scheme, Host: upstream.Host}) },
		FlushInterval: -1,
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("ok")) })
	mux.Handle("/mcp", proxy)
	standIn := httptest.NewServer(mux)
	t.Cleanup(func() { standIn.CloseClientConnections(); standIn.Close() })

	data := t.TempDir()
	inst, _ := json.Marshal(map[string]any{"url": standIn.URL, "pid": os.Getpid(), "startedAt": time.Now()})
	if err := os.WriteFile(filepath.Join(data, "instance.json"), inst, 0o600); err != nil {
		t.Fatal(err)
	}

	calls := []parityCall{
		{"echo", map[string]any{"message": "hello <b>&</b> ünïcode"}},
		{"get-sum", map[string]any{"a": 2, "b": 3.5}},
		{"get-tiny-image", map[string]any{}},
		{"get-annotated-message", map[string]any{"messageType": "error", "includeImage": true}},
		{"get-structured-content", map[string]any{"location": "Chicago"}},
		{"trigger-long-running-operation", map[string]any{"duration": 1, "steps": 2}},
	}
	direct, err := runDirect(directSpec{URL: ev.URL(), Calls: calls})
	if err != nil {
		t.Fatal(err)
	}
	bridged, err := runDirect(directSpec{
		Command: binary,
		Args:    []string{"stdio", "--data", data, "--start=false"},
		Env:     map[string]string{"SWITCHBOARD_CLIENT_TOKEN": "sbc_e2e-stand-in-token-0123456789abcdefghijkl"},
		Calls:   calls,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(bridged.Tools) != len(direct.Tools) || len(direct.Tools) == 0 {
		t.Fatalf("through the bridge %d tools, directly %d", len(bridged.Tools), len(direct.Tools))
	}
	for i := range direct.Tools {
		if got, want := canonical(t, bridged.Tools[i]), canonical(t, direct.Tools[i]); got != want {
			t.Errorf("tool %d through the bridge:\n%s\nwant:\n%s", i, got, want)
		}
	}
	for i, c := range calls {
		d, b := direct.Calls[i], bridged.Calls[i]
		if d.Error != nil || b.Error != nil {
			t.Errorf("%s: error directly %+v, through the bridge %+v", c.Name, d.Error, b.Error)
			continue
		}
		if got, want := canonical(t, b.Result), canonical(t, d.Result); got != want {
			t.Errorf("%s through the bridge:\n%s\nwant:\n%s", c.Name, got, want)
		}
	}
}
