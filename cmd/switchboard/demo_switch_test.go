package main

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/handlers"
)

// Creating the settings file the demo asks for, in a directory that did
// not exist either, ends the demo live: the file's servers run, the demo
// servers are gone, the config API names the file and the page's notice
// is taken away by its event stream.
func TestDemoSwitchesToTheCreatedSettingsFile(t *testing.T) {
	configHome := filepath.Join(t.TempDir(), "config") // not created: mkdir -p is the person's job
	p := launchEnv(t, t.TempDir(), []string{"XDG_CONFIG_HOME=" + configHome})
	p.events("demo-stdio", isState("connected"))
	if _, page := p.do(http.MethodGet, handlers.PathDashboard); !strings.Contains(string(page), `data-testid="demo-notice"`) {
		t.Fatalf("the dashboard shows no demo notice before the file exists")
	}

	settings := filepath.Join(configHome, "switchboard", "settings.json")
	p.pageEventsUntil(func() {
		if err := os.MkdirAll(filepath.Dir(settings), 0o700); err != nil {
			t.Fatal(err)
		}
		data, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"mine": demoServer()}})
		if err := os.WriteFile(settings, data, 0o600); err != nil {
			t.Fatal(err)
		}
	}, func(html string) bool {
		return strings.Contains(html, `id="demo-notice-slot"`) && !strings.Contains(html, `data-testid="demo-notice"`)
	})

	p.events("mine", isState("connected"))
	for _, n := range []string{"demo-stdio", "demo-http", "demo-flaky"} {
		if code, _ := p.do(http.MethodGet, handlers.ServerPath(handlers.PathServer, n)); code != http.StatusNotFound {
			t.Errorf("%s after the switch: %d, want 404", n, code)
		}
	}
	var cfg handlers.ConfigDTO
	_, body := p.do(http.MethodGet, handlers.PathConfig)
	if err := json.Unmarshal(body, &cfg); err != nil {
		t.Fatal(err)
	}
	if len(cfg.Sources) == 0 || cfg.Sources[0].Path != settings || cfg.LastReloadAt == nil {
		t.Errorf("config after the switch: %s, want the file %s as the first source", body, settings)
	}
	if _, page := p.do(http.MethodGet, handlers.PathDashboard); strings.Contains(string(page), `data-testid="demo-notice"`) {
		t.Errorf("the dashboard still shows the demo notice after the switch")
	}
}

// A project's .switchboard/ created after start is watched: its servers
// appear (pending approval, as project servers do) without a reload.
func TestProjectSettingsDirectoryCreatedLater(t *testing.T) {
	data := t.TempDir() // launch uses it as the project too
	settings := writeSettings(t, map[string]any{"mine": demoServer()})
	p := launch(t, data, "--settings", settings)
	p.events("mine", isState("connected"))

	dir := filepath.Join(data, ".switchboard")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"proj": demoServer()}})
	if err := os.WriteFile(filepath.Join(dir, "settings.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	p.events("proj", func(s handlers.StatusDTO) bool {
		return s.BlockedReason != nil && *s.BlockedReason == "pending_approval"
	})
}

// A save that only reformats the file and reorders its keys is no reload:
// no config event, and lastReloadAt stays. The manual reload after it is
// the barrier: it runs a pass of its own on the reformatted file, and
// passes are serialized, so by its answer the watcher's pass has run or
// will find the same file.
func TestFormattingOnlySaveIsNoReload(t *testing.T) {
	settings := writeSettings(t, map[string]any{"a": demoServer(), "b": demoServer("--name", "bee")})
	p := launch(t, t.TempDir(), "--settings", settings)
	p.events("a", isState("connected"))
	var before handlers.ConfigDTO
	_, body := p.do(http.MethodGet, handlers.PathConfig)
	if err := json.Unmarshal(body, &before); err != nil || before.LastReloadAt == nil {
		t.Fatalf("config %s (%v): want a lastReloadAt", body, err)
	}

	frames := 0
	p.eventsOf("config", func() {
		reformatted := "{\"theme\":\"kept\",\n\t\"mcpServers\": {\"b\": {\"args\": [\"demo-server\", \"--name\", \"bee\"], \"command\": " + quote(binary) +
			"},\n\t\"a\": {\"args\": [\"demo-server\"],\n\t\"command\": " + quote(binary) + "}}}\n"
		if err := os.WriteFile(settings, []byte(reformatted), 0o600); err != nil {
			t.Fatal(err)
		}
		code, body := p.do(http.MethodPost, handlers.PathConfigReload)
		var after handlers.ConfigDTO
		if err := json.Unmarshal(body, &after); code != http.StatusOK || err != nil || after.LastReloadAt == nil {
			t.Fatalf("reload: %d %s", code, body)
		}
		if *after.LastReloadAt != *before.LastReloadAt {
			t.Errorf("lastReloadAt moved from %d to %d on a formatting-only save", *before.LastReloadAt, *after.LastReloadAt)
		}
		saveAtomically(t, settings, map[string]any{"a": demoServer(), "b": demoServer("--name", "bee"), "c": demoServer()})
	}, func(data []byte) bool {
		frames++
		var c handlers.ConfigDTO
		if err := json.Unmarshal(data, &c); err != nil {
			t.Fatal(err)
		}
		if frames == 1 {
			return false // the stream's opening state
		}
		if len(c.Sources) == 0 || len(c.Sources[0].Servers) != 3 {
			t.Errorf("config event %d before the real edit: %s", frames, data)
		}
		return true
	})
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// pageEventsUntil opens the dashboard's event stream, runs start once it
// is open, then hands each event's HTML to done until it says enough, or
// fails after patience.
func (p *proc) pageEventsUntil(start func(), done func(html string) bool) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, p.url+handlers.PathPageEvents, nil)
	p.authorize(req)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		p.t.Fatalf("page event stream: %v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		p.t.Fatalf("page event stream: %s", resp.Status)
	}
	start()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	var html strings.Builder
	for sc.Scan() {
		line := sc.Text()
		if data, ok := strings.CutPrefix(line, "data: "); ok {
			html.WriteString(data + "\n")
			continue
		}
		if line == "" && html.Len() > 0 {
			if done(html.String()) {
				return
			}
			html.Reset()
		}
	}
	p.t.Fatalf("no page event ended the wait; log:\n%s", p.logs)
}
