package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/handlers"
	"github.com/switchboard-mcp/switchboard/sqlite"
)

// A crash of a real child shows as error (exited, code, stderr tail) and the
// reconnect that follows clears every error field in the same snapshot.
func TestCrashThenReconnectClearsError(t *testing.T) {
	settings := writeSettings(t, map[string]any{"flaky": demoServer("--crash-every", "1s")})
	p := launch(t, t.TempDir(), "--settings", settings)
	seen := p.events("flaky", func(s handlers.StatusDTO) bool { return s.State == "error" })
	crash := seen[len(seen)-1]
	if crash.ErrorCategory == nil || *crash.ErrorCategory != "exited" || crash.ExitCode == nil || *crash.ExitCode != 1 {
		t.Fatalf("crash snapshot %s, want exited with code 1", describe(seen[len(seen)-1:]))
	}
	if crash.Error == nil || !strings.Contains(*crash.Error, "simulated crash") || crash.NextRetryAt == nil || !crash.Retryable {
		t.Errorf("crash error %v next %v retryable %v; want the stderr tail and a scheduled retry", crash.Error, crash.NextRetryAt, crash.Retryable)
	}
	seen = p.events("flaky", func(s handlers.StatusDTO) bool { return s.State == "connected" && s.Version > crash.Version })
	back := seen[len(seen)-1]
	if back.Error != nil || back.ErrorCategory != nil || back.LastErrorAt != nil || back.ExitCode != nil || back.NextRetryAt != nil || back.Attempt != 0 {
		t.Errorf("connected snapshot after the crash still carries the error: %+v", back)
	}
	if back.ToolCount == 0 {
		t.Errorf("connected snapshot has no tools; lists were not reloaded")
	}
}

// A stopped (SIGSTOP) server answers nothing: the keep-alive probe times out
// and the supervisor reconnects with a fresh process.
func TestHungServerIsReconnected(t *testing.T) {
	srv := demoServer()
	srv["keepAliveSeconds"] = 5 // the smallest interval the settings accept
	settings := writeSettings(t, map[string]any{"hung": srv})
	p := launch(t, t.TempDir(), "--settings", settings)
	p.events("hung", isState("connected"))
	child := childPID(t, p.cmd.Process.Pid)
	if err := syscall.Kill(child, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Kill(child, syscall.SIGCONT) })
	seen := p.events("hung", isState("error"))
	if cat := seen[len(seen)-1].ErrorCategory; cat == nil || *cat != "timeout" {
		t.Fatalf("hung server error category %v, want timeout: %s", cat, describe(seen))
	}
	p.events("hung", isState("connected"))
	fresh := false
	for _, pid := range children(p.cmd.Process.Pid) {
		fresh = fresh || pid != child
	}
	if !fresh {
		t.Errorf("no new server process after the reconnect; children %v", children(p.cmd.Process.Pid))
	}
}

// Disabled survives a restart of the binary, and so does auto-disabled.
func TestDisabledSurvivesRestart(t *testing.T) {
	data := t.TempDir()
	settings := writeSettings(t, map[string]any{"one": demoServer(), "two": demoServer()})
	p := launch(t, data, "--settings", settings)
	p.events("one", isState("connected"))
	if code, body := p.do(http.MethodPost, handlers.ServerPath(handlers.PathServerDisable, "one")); code != http.StatusAccepted {
		t.Fatalf("disable: %d %s", code, body)
	}
	p.stop()

	// Auto-disable is recorded the same way; seed it as the supervisor would.
	db, err := sqlite.Open(context.Background(), data)
	if err != nil {
		t.Fatal(err)
	}
	project := data
	if err := db.ServerStore().SaveServerRecord(context.Background(), domain.Scope{User: domain.LocalUser, Workspace: project},
		domain.ServerRecord{Name: "two", StateSet: true, DisabledReason: domain.DisabledAuto}); err != nil {
		t.Fatal(err)
	}
	db.Close()

	p2 := launch(t, data, "--settings", settings)
	for name, reason := range map[string]string{"one": "manual", "two": "auto"} {
		s := p2.status(name)
		if s.State != "disabled" || s.DisabledReason == nil || *s.DisabledReason != reason {
			t.Errorf("%s after restart: %s reason %v, want disabled %s", name, s.State, s.DisabledReason, reason)
		}
	}
}

// DELETE removes the entry from the settings file, keeping the rest of it.
func TestRemoveEditsSettingsFile(t *testing.T) {
	settings := writeSettings(t, map[string]any{"keep": demoServer(), "drop": demoServer()})
	p := launch(t, t.TempDir(), "--settings", settings)
	p.events("drop", isState("connected"))
	if code, body := p.do(http.MethodDelete, handlers.ServerPath(handlers.PathServer, "drop")); code != http.StatusNoContent {
		t.Fatalf("delete: %d %s", code, body)
	}
	data, err := os.ReadFile(settings)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		MCPServers map[string]any `json:"mcpServers"`
		Theme      string         `json:"theme"`
	}
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatalf("settings after delete is not JSON: %v\n%s", err, data)
	}
	if _, ok := got.MCPServers["drop"]; ok || got.MCPServers["keep"] == nil || got.Theme != "kept" {
		t.Errorf("settings after delete:\n%s\nwant only drop removed", data)
	}
	if code, _ := p.do(http.MethodGet, handlers.ServerPath(handlers.PathServer, "drop")); code != http.StatusNotFound {
		t.Errorf("GET drop after delete: %d, want 404", code)
	}
}

// The status command prints one line per server of a running instance.
func TestStatusCommand(t *testing.T) {
	settings := writeSettings(t, map[string]any{"alpha": demoServer(), "beta": map[string]any{"command": "/nonexistent/mcp-server"}})
	data := t.TempDir()
	p := launch(t, data, "--settings", settings)
	p.events("alpha", isState("connected"))
	p.events("beta", isState("error"))
	out, err := exec.Command(binary, "status", "--addr", p.addr, "--data", data).CombinedOutput()
	if err != nil {
		t.Fatalf("status: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "● alpha") || !strings.Contains(lines[0], "connected") ||
		!strings.Contains(lines[0], "18 tools") || !strings.Contains(lines[1], "error: config, no automatic retry") {
		t.Errorf("status output:\n%s", out)
	}
}

// A malformed file stops start-up with the file, line and column.
func TestMalformedSettingsIsAClearError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	os.WriteFile(path, []byte("{\n  \"mcpServers\": {\n    \"a\": }\n}\n"), 0o600)
	cmd := exec.Command(binary, "--addr", "127.0.0.1:0", "--data", t.TempDir(), "--settings", path)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	if err == nil {
		t.Fatalf("switchboard started on a malformed file")
	}
	if want := path + ":3:10:"; !strings.Contains(stderr.String(), want) {
		t.Errorf("stderr %q, want it to name %s", stderr.String(), want)
	}
}

// A bad entry is reported and skipped; the good ones run.
func TestBadEntryDoesNotStopOthers(t *testing.T) {
	settings := writeSettings(t, map[string]any{"good": demoServer(), "bad": map[string]any{"type": "carrier-pigeon"}})
	p := launch(t, t.TempDir(), "--settings", settings)
	p.events("good", isState("connected"))
	if !strings.Contains(p.logs.String(), `server \"bad\": unknown \"type\"`) {
		t.Errorf("log does not report the bad entry:\n%s", p.logs)
	}
}

// Shutting down ends every child process.
func TestShutdownEndsChildren(t *testing.T) {
	settings := writeSettings(t, map[string]any{"a": demoServer(), "b": demoServer()})
	p := launch(t, t.TempDir(), "--settings", settings)
	p.events("a", isState("connected"))
	p.events("b", isState("connected"))
	kids := children(p.cmd.Process.Pid)
	if len(kids) != 2 {
		t.Fatalf("children %v, want 2", kids)
	}
	p.stop()
	for _, k := range kids {
		if err := syscall.Kill(k, 0); err == nil {
			t.Errorf("child %d outlived switchboard", k)
		}
	}
}

// children lists the pids whose parent is pid, from /proc: each thread
// keeps its own list, and Go forks from whichever thread it is on.
func children(pid int) []int {
	lists, _ := filepath.Glob(filepath.Join("/proc", strconv.Itoa(pid), "task", "*", "children"))
	var out []int
	for _, l := range lists {
		data, _ := os.ReadFile(l)
		for _, f := range strings.Fields(string(data)) {
			if n, err := strconv.Atoi(f); err == nil {
				out = append(out, n)
			}
		}
	}
	return out
}

func childPID(t *testing.T, pid int) int {
	t.Helper()
	kids := children(pid)
	if len(kids) != 1 {
		t.Fatalf("children of %d: %v, want exactly one", pid, kids)
	}
	return kids[0]
}
