package main

import (
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/handlers"
)

// Editing the settings file reconnects only the server whose connection
// changed; a broken save keeps everything running and says where it is
// broken until it is fixed.
func TestHotReload(t *testing.T) {
	servers := map[string]any{"keep": demoServer(), "edit": demoServer(), "drop": demoServer()}
	settings := writeSettings(t, servers)
	p := launch(t, t.TempDir(), "--settings", settings)
	for _, n := range []string{"keep", "edit", "drop"} {
		p.events(n, isState("connected"))
	}
	keep := p.status("keep")
	before := p.status("edit")

	// Save as an editor would: a new file renamed over the old one.
	servers["edit"] = demoServer("--name", "edited")
	delete(servers, "drop")
	servers["new"] = demoServer()
	saveAtomically(t, settings, servers)
	p.events("new", isState("connected"))
	p.events("edit", func(s handlers.StatusDTO) bool { return s.State == "connected" && s.Version > before.Version })
	if code, _ := p.do(http.MethodGet, handlers.ServerPath(handlers.PathServer, "drop")); code != http.StatusNotFound {
		t.Errorf("drop after its removal from the file: %d, want 404", code)
	}
	after := p.status("keep")
	if *after.ConnectedAt != *keep.ConnectedAt || after.State != "connected" {
		t.Errorf("keep was touched: connected at %d, then %d (%s)", *keep.ConnectedAt, *after.ConnectedAt, after.State)
	}

	// A half-written file keeps the last good configuration and shows where.
	if err := os.WriteFile(settings, []byte("{\n  \"mcpServers\": {\n    \"keep\": "), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := p.configUntil(func(c handlers.ConfigDTO) bool { return c.Error != nil })
	if cfg.Error.File != settings || cfg.Error.Line != 3 {
		t.Errorf("config error %+v, want %s line 3", cfg.Error, settings)
	}
	if s := p.status("keep"); s.State != "connected" || *s.ConnectedAt != *keep.ConnectedAt {
		t.Errorf("a broken save touched keep: %s", s.State)
	}
	saveAtomically(t, settings, servers)
	cfg = p.configUntil(func(c handlers.ConfigDTO) bool { return c.Error == nil })
	if len(cfg.Sources) != 1 || cfg.Sources[0].Scope != "user" || strings.Join(cfg.Sources[0].Servers, ",") != "edit,keep,new" {
		t.Errorf("config sources %+v, want the user file with edit, keep, new", cfg.Sources)
	}
}

// configUntil follows the event stream's config frames until ok.
func (p *proc) configUntil(ok func(handlers.ConfigDTO) bool) handlers.ConfigDTO {
	p.t.Helper()
	var got handlers.ConfigDTO
	p.eventsOf("config", func() {}, func(data []byte) bool {
		got = handlers.ConfigDTO{}
		if err := json.Unmarshal(data, &got); err != nil {
			p.t.Fatalf("config event %q: %v", data, err)
		}
		return ok(got)
	})
	return got
}

func saveAtomically(t *testing.T, path string, servers map[string]any) {
	t.Helper()
	data, err := json.MarshalIndent(map[string]any{"mcpServers": servers, "theme": "kept"}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// Gating: excluded servers never start and say why; the start-up
// allow-list is an upper bound the file may narrow but never widen.
func TestGatingLists(t *testing.T) {
	servers := map[string]any{"a": demoServer(), "b": demoServer(), "c": demoServer()}
	path := writeSettings(t, servers)
	data, _ := os.ReadFile(path)
	var doc map[string]any
	_ = json.Unmarshal(data, &doc)
	doc["mcp"] = map[string]any{"excluded": []string{"b"}, "allowed": []string{"a", "b", "c"}}
	write := func() {
		out, _ := json.Marshal(doc)
		tmp := path + ".tmp"
		if err := os.WriteFile(tmp, out, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, path); err != nil {
			t.Fatal(err)
		}
	}
	write()
	p := launch(t, t.TempDir(), "--settings", path, "--allowed-mcp-server-names", "a,b")
	p.events("a", isState("connected"))
	for name, want := range map[string]string{"b": "excluded", "c": "not_allowed"} {
		s := p.status(name)
		if s.State != "disabled" || s.BlockedReason == nil || *s.BlockedReason != want {
			t.Errorf("%s: %s blocked %v, want disabled and %s", name, s.State, s.BlockedReason, want)
		}
		if code, _ := p.do(http.MethodPost, handlers.ServerPath(handlers.PathServerRestart, name)); code != http.StatusConflict {
			t.Errorf("restart %s: %d, want 409", name, code)
		}
	}
	if kids := children(p.cmd.Process.Pid); len(kids) != 1 {
		t.Errorf("child processes %v, want only a's", kids)
	}
	// Lifting the exclusion connects b; c stays outside the start-up bound.
	doc["mcp"] = map[string]any{"allowed": []string{"a", "b", "c"}}
	write()
	p.events("b", isState("connected"))
	if s := p.status("c"); s.BlockedReason == nil || *s.BlockedReason != "not_allowed" {
		t.Errorf("c widened past the start-up allow-list: %+v", s.BlockedReason)
	}
}
