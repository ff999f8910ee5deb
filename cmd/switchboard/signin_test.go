package main

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/handlers"
	"github.com/switchboard-mcp/switchboard/oauth/oauthtest"
)

// A remote server that needs OAuth waits for a sign-in, which the API
// starts and the callback on Switchboard's own address completes; the
// server then connects, and a restart keeps the sign-in (sealed with the
// key file).
func TestSignInThroughTheAPIAndAcrossRestart(t *testing.T) {
	fx := oauthtest.New(t, oauthtest.Options{})
	settings := writeSettings(t, map[string]any{"remote": map[string]any{"type": "http", "url": fx.URL()}})
	data := t.TempDir()
	keyFile := filepath.Join(t.TempDir(), "key")
	p := launchEnv(t, data, []string{"SWITCHBOARD_KEY_FILE=" + keyFile}, "--settings", settings)
	p.events("remote", func(s handlers.StatusDTO) bool {
		return s.Auth != nil && s.Auth.State == string(domain.AuthSignInNeeded)
	})

	req, _ := http.NewRequest(http.MethodPost, p.url+handlers.ServerPath(handlers.PathServerAuthStart, "remote"), nil)
	resp, err := http.DefaultClient.Do(p.authorize(req))
	if err != nil {
		t.Fatal(err)
	}
	var start struct {
		AuthorizationURL string `json:"authorizationUrl"`
	}
	err = json.NewDecoder(resp.Body).Decode(&start)
	_ = resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK || start.AuthorizationURL == "" {
		t.Fatalf("auth/start: %d, %v, %+v; log:\n%s", resp.StatusCode, err, start, p.logs)
	}
	// The browser: the authorization server sends it to the callback.
	resp, err = http.Get(start.AuthorizationURL)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Request.URL.String(), p.url+handlers.PathOAuthCallback) {
		t.Fatalf("callback at %s answered %d:\n%s", resp.Request.URL.Redacted(), resp.StatusCode, page)
	}
	p.events("remote", isState("connected"))
	if st := p.status("remote"); st.Auth == nil || st.Auth.State != string(domain.AuthSignedIn) || st.Auth.KeySource == nil || *st.Auth.KeySource != domain.KeySourceFile {
		t.Fatalf("auth after sign-in: %+v", st.Auth)
	}
	if info, err := os.Stat(keyFile); err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v", err)
	}
	p.stop()

	again := launchEnv(t, data, []string{"SWITCHBOARD_KEY_FILE=" + keyFile}, "--settings", settings)
	again.events("remote", isState("connected"))
}
