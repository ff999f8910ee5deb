package main

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// The token is made on first start, private, printed once in the sign-in
// link, and found again by `switchboard token` and `switchboard status`.
func TestTokenLifecycle(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	settings := writeSettings(t, map[string]any{"demo": demoServer()})
	p := launch(t, data, "--settings", settings)
	p.events("demo", isState("connected"))

	fi, err := os.Stat(filepath.Join(data, tokenFileName))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("token file mode %v, want 0600", fi.Mode().Perm())
	}
	if di, _ := os.Stat(data); di.Mode().Perm() != 0o700 {
		t.Errorf("data directory mode %v, want 0700", di.Mode().Perm())
	}

	var out, errOut bytes.Buffer
	getenv := func(string) string { return "" }
	if err := run(context.Background(), []string{"token", "--data", data}, getenv, nil, &out, &errOut); err != nil {
		t.Fatalf("switchboard token: %v (%s)", err, errOut.String())
	}
	if got := strings.TrimSpace(out.String()); got != p.token {
		t.Errorf("switchboard token printed %q, want the token of the link %q", got, p.token)
	}

	out.Reset()
	if err := run(context.Background(), []string{"status", "--addr", p.addr, "--data", data}, getenv, nil, &out, &errOut); err != nil {
		t.Fatalf("switchboard status: %v", err)
	}
	if !strings.Contains(out.String(), "● demo") {
		t.Errorf("status printed %q, want the demo server", out.String())
	}

	// A rotated token takes over at the next start; the old one is refused then.
	out.Reset()
	if err := run(context.Background(), []string{"token", "--data", data, "--rotate"}, getenv, nil, &out, &errOut); err != nil {
		t.Fatalf("switchboard token --rotate: %v", err)
	}
	rotated := strings.TrimSpace(out.String())
	if rotated == p.token || len(rotated) < 43 {
		t.Errorf("rotated token %q, want a new one", rotated)
	}
	if fi, _ := os.Stat(filepath.Join(data, tokenFileName)); fi.Mode().Perm() != 0o600 {
		t.Errorf("rotated token file mode %v, want 0600", fi.Mode().Perm())
	}
	if code, _ := p.do(http.MethodGet, "/api/v1/servers"); code != http.StatusOK {
		t.Errorf("the running instance after --rotate: %d, want it to keep its token until it restarts", code)
	}
	p.stop()
	p2 := launch(t, data, "--settings", settings)
	if p2.token != rotated {
		t.Errorf("after a restart the link carries %q, want the rotated token", p2.token)
	}
	p2.token = p.token
	if code, _ := p2.do(http.MethodGet, "/api/v1/servers"); code != http.StatusUnauthorized {
		t.Errorf("the old token after rotation and restart: %d, want 401", code)
	}
	p2.token = rotated
	p = p2

	// Another data directory's token is refused, with a clear word.
	other := t.TempDir()
	if _, err := ensureToken(other); err != nil {
		t.Fatal(err)
	}
	err = run(context.Background(), []string{"status", "--addr", p.addr, "--data", other}, getenv, nil, &out, &errOut)
	if err == nil || !strings.Contains(err.Error(), "refused the access token") {
		t.Errorf("status with another data directory's token: %v, want a refusal", err)
	}

	// Without the token the API answers 401; with it, 200.
	req, _ := http.NewRequest(http.MethodGet, p.url+"/api/v1/servers", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("GET /api/v1/servers without the token: %d, want 401", resp.StatusCode)
	}
}

// A host app passes its own token; a loose token file is tightened.
func TestTokenFromHostApp(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "tok")
	const tok = "host-app-chosen-token-0123456789abcdef"
	if err := os.WriteFile(path, []byte(tok+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := tokenSource{file: path}.load()
	if err != nil || got != tok {
		t.Fatalf("token file: got %q, %v; want %q", got, err, tok)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o644 {
		t.Errorf("host's token file mode after reading: %v, want it left as the host set it (0644)", fi.Mode().Perm())
	}
	if !looseTokenFile(path) {
		t.Errorf("looseTokenFile(0644): false, want true so start-up warns")
	}
	own := filepath.Join(dir, "own")
	if err := os.MkdirAll(own, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(own, tokenFileName), []byte(tok), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := ensureToken(own); err != nil || got != tok {
		t.Fatalf("ensureToken of an existing file: %q, %v", got, err)
	}
	if fi, _ := os.Stat(filepath.Join(own, tokenFileName)); fi.Mode().Perm() != 0o600 {
		t.Errorf("data directory's token file after reading: %v, want tightened to 0600", fi.Mode().Perm())
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := (tokenSource{file: fifo}).load(); err == nil || !strings.Contains(err.Error(), "named pipe") {
		t.Errorf("a FIFO as the token file: %v, want a clear refusal (and no hang)", err)
	}
	if got, err := (tokenSource{value: tok, file: path, data: dir}).load(); err != nil || got != tok {
		t.Errorf("SWITCHBOARD_TOKEN: got %q, %v", got, err)
	}
	for _, bad := range []string{"short", strings.Repeat("a", 40) + " b", strings.Repeat("a", 40) + "%0a", strings.Repeat("é", 40)} {
		if _, err := (tokenSource{value: bad}).load(); err == nil {
			t.Errorf("token %q: accepted, want an error", bad)
		}
	}
	if _, err := readTokenFile(dir); err == nil {
		t.Errorf("a directory as the token file: accepted")
	}
	a, _ := ensureToken(filepath.Join(dir, "d"))
	b, _ := ensureToken(filepath.Join(dir, "d"))
	if a == "" || a != b || len(a) < 43 {
		t.Errorf("ensureToken: %q then %q, want one stable token of 256 bits", a, b)
	}
}

func TestListenAddressPolicy(t *testing.T) {
	for _, tc := range []struct {
		addr   string
		remote bool
		ok     bool
	}{
		{"127.0.0.1:7391", false, true},
		{"localhost:0", false, true},
		{"[::1]:7391", false, true},
		{"0.0.0.0:7391", false, false},
		{":7391", false, false},
		{"192.0.2.7:7391", false, false},
		{"0.0.0.0:7391", true, true},
		{"192.0.2.7:7391", true, true},
	} {
		if err := checkListenAddr(tc.addr, tc.remote); (err == nil) != tc.ok {
			t.Errorf("checkListenAddr(%q, remote=%v): %v, want ok=%v", tc.addr, tc.remote, err, tc.ok)
		}
	}
	for o, ok := range map[string]bool{"https://app.example": true, "tauri://localhost": true, "'self'": true,
		"*": false, "https://a.example/path": false, "https://a.example; script-src *": false, "app.example": false} {
		if err := checkFrameAncestor(o); (err == nil) != ok {
			t.Errorf("checkFrameAncestor(%q): %v, want ok=%v", o, err, ok)
		}
	}
	if got := browseURL("[::]:7391"); got != "http://127.0.0.1:7391" {
		t.Errorf("browseURL: %q", got)
	}
}

// A host app's token reaches neither the servers Switchboard starts nor a
// settings file's ${VAR}: a project server could otherwise drive it.
func TestHostTokenStaysWithSwitchboard(t *testing.T) {
	const tok = "host-app-chosen-token-0123456789abcdef"
	dump := filepath.Join(t.TempDir(), "env")
	settings := writeSettings(t, map[string]any{
		"spy": map[string]any{"command": "sh", "args": []string{"-c", "env > " + dump + "; exec " + binary + " demo-server"}},
	})
	p := launchEnv(t, t.TempDir(), []string{"SWITCHBOARD_TOKEN=" + tok}, "--settings", settings)
	if p.token != tok {
		t.Errorf("sign-in link token %q, want the host's", p.token)
	}
	p.events("spy", isState("connected"))
	env, err := os.ReadFile(dump)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(env), tok) || strings.Contains(string(env), "SWITCHBOARD_TOKEN") {
		t.Errorf("the server's environment holds the token:\n%s", env)
	}
	expand := withoutToken(func(k string) string { return "value of " + k })
	if got := expand("SWITCHBOARD_TOKEN"); got != "" {
		t.Errorf("settings expand ${SWITCHBOARD_TOKEN} to %q, want nothing", got)
	}
	if got := expand("HOME"); got != "value of HOME" {
		t.Errorf("settings expand ${HOME} to %q", got)
	}
}
