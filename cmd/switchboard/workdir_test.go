package main

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/sqlite"
)

// A user's stdio server without cwd runs in the user's home, never in the
// directory Switchboard was started from (here the test's package dir).
func TestStdioServerWithoutCwdRunsInHome(t *testing.T) {
	if _, err := os.Stat("/proc/self/cwd"); err != nil {
		t.Skip("needs /proc to see a child's working directory")
	}
	data := filepath.Join(t.TempDir(), "data")
	home := t.TempDir()
	settings := writeSettings(t, map[string]any{"plain": demoServer("--name", "plain")})
	p := launchEnv(t, data, []string{"HOME=" + home}, "--settings", settings)
	p.events("plain", isState("connected"))

	child := childWithArg(t, p.cmd.Process.Pid, "demo-server")
	got, err := os.Readlink("/proc/" + strconv.Itoa(child) + "/cwd")
	if err != nil {
		t.Fatal(err)
	}
	want, _ := filepath.EvalSymlinks(home)
	if got != want {
		t.Errorf("stdio server without cwd runs in %q, want the user's home %q", got, want)
	}
}

// childWithArg finds the child process of parent whose command line holds
// arg.
func childWithArg(t *testing.T, parent int, arg string) int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// The fields after the command name, which is in parentheses.
		fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		if len(fields) < 2 || fields[1] != strconv.Itoa(parent) {
			continue
		}
		cmdline, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if strings.Contains(string(cmdline), arg) {
			return pid
		}
	}
	t.Fatalf("no child of %d runs with %q", parent, arg)
	return 0
}

// Each settings file gives its stdio servers without cwd a directory of
// their own: the project's for the project's file, home for the user's;
// an explicit cwd stays, and the approval still shows cwd as written.
func TestSettingsWorkDirDefaults(t *testing.T) {
	ctx := context.Background()
	home, project := t.TempDir(), t.TempDir()
	user := writeSettings(t, map[string]any{"mine": map[string]any{"command": "node"}, "pinned": map[string]any{"command": "node", "cwd": "/srv"}})
	if err := os.WriteFile(filepath.Join(project, ".mcp.json"), []byte(`{"mcpServers":{"theirs":{"command":"node"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := sqlite.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	getenv := func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}
	loaded, err := loadSettings(user, project, getenv, domain.Gate{}, db.ApprovalStore())(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"mine": home, "pinned": "/srv", "theirs": project}
	for _, s := range loaded.Servers {
		if s.WorkDir() != want[s.Name] {
			t.Errorf("%s runs in %q, want %q", s.Name, s.WorkDir(), want[s.Name])
		}
		if s.Name == "theirs" && (s.Approval == nil || s.Written().Cwd != "") {
			t.Errorf("theirs: approval %+v, written cwd %q; want an approval showing cwd not set", s.Approval, s.Written().Cwd)
		}
	}
	if len(loaded.Servers) != len(want) {
		t.Errorf("got %d servers, want %d", len(loaded.Servers), len(want))
	}
}

// The demo's stdio servers, like a user's, run in the user's home.
func TestDemoStdioServersRunInHome(t *testing.T) {
	home := t.TempDir()
	getenv := func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}
	src, err := loadSources(t.Context(), serveConfig{demo: true}, getenv, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer src.demo.stop()
	var stdio int
	for _, s := range src.servers {
		if s.Transport != domain.TransportStdio {
			continue
		}
		stdio++
		if s.WorkDir() != home {
			t.Errorf("demo server %s runs in %q, want the home %q", s.Name, s.WorkDir(), home)
		}
	}
	if stdio == 0 {
		t.Fatal("the demo has no stdio server to check")
	}
}
