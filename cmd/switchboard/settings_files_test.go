package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/handlers"
)

// sigtermBudget bounds how long the test waits for SIGTERM to end
// Switchboard: the production shutdownDeadline plus a margin, so on a
// loaded machine the forced exit at the deadline and this timer never
// race. Whether the shutdown was orderly is told by the exit status.
const sigtermBudget = shutdownDeadline + 5*time.Second

// A named pipe as --settings used to block start-up in open(2), deaf to
// SIGTERM, and a symlink to /dev/zero to read until memory ran out. Both
// are now refused at once, with a message that says why.
func TestUnreadableSettingsExitsAtOnce(t *testing.T) {
	tests := []struct {
		name   string
		setup  func(t *testing.T, path string)
		reason string
	}{
		{"fifo", func(t *testing.T, path string) {
			if err := syscall.Mkfifo(path, 0o600); err != nil {
				t.Fatal(err)
			}
		}, "not a regular file (named pipe)"},
		{"dev-zero-symlink", func(t *testing.T, path string) {
			if err := os.Symlink("/dev/zero", path); err != nil {
				t.Fatal(err)
			}
		}, "not a regular file (character device)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			settings := filepath.Join(t.TempDir(), "settings.json")
			tt.setup(t, settings)
			cmd := exec.Command(binary, "--addr", "127.0.0.1:0", "--data", t.TempDir(), "--project", t.TempDir(), "--settings", settings)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err := <-done:
				if err == nil {
					t.Fatalf("switchboard started on %s; stderr:\n%s", tt.name, stderr.String())
				}
			case <-time.After(patience):
				_ = cmd.Process.Kill()
				<-done
				t.Fatalf("switchboard hung on %s as --settings; stderr:\n%s", tt.name, stderr.String())
			}
			if want := "settings file " + settings + " is " + tt.reason; !strings.Contains(stderr.String(), want) {
				t.Errorf("stderr %q, want it to say %q", stderr.String(), want)
			}
		})
	}
}

// A project file that is a symlink to /dev/zero used to exhaust memory at
// start-up, and a named pipe to hang it. Either is now a config problem
// naming the file, the user's own server starts regardless, and SIGTERM
// ends the process within its budget.
func TestUnreadableProjectFileIsAConfigProblem(t *testing.T) {
	tests := []struct {
		name   string
		file   string // under the project
		setup  func(t *testing.T, path string)
		reason string
	}{
		{"mcp-json-to-dev-zero", ".mcp.json", func(t *testing.T, path string) {
			if err := os.Symlink("/dev/zero", path); err != nil {
				t.Fatal(err)
			}
		}, "not a regular file (character device)"},
		{"mcp-json-fifo", ".mcp.json", func(t *testing.T, path string) {
			if err := syscall.Mkfifo(path, 0o600); err != nil {
				t.Fatal(err)
			}
		}, "not a regular file (named pipe)"},
		{"switchboard-settings-oversized", filepath.Join(".switchboard", "settings.json"), func(t *testing.T, path string) {
			if err := os.Mkdir(filepath.Dir(path), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte("{}"), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Truncate(path, 1<<30); err != nil { // sparse
				t.Fatal(err)
			}
		}, "larger than 4 MiB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			project := t.TempDir() // launch makes the data directory the project
			bad := filepath.Join(project, tt.file)
			tt.setup(t, bad)
			settings := writeSettings(t, map[string]any{"mine": demoServer()})
			p := launch(t, project, "--settings", settings)
			p.events("mine", isState("connected"))

			code, body := p.do(http.MethodGet, handlers.PathConfig)
			var cfg handlers.ConfigDTO
			if err := json.Unmarshal(body, &cfg); code != http.StatusOK || err != nil {
				t.Fatalf("GET config: %d %s (%v)", code, body, err)
			}
			if cfg.Error == nil || cfg.Error.File != bad || cfg.Error.Message != tt.reason {
				t.Errorf("config error %+v, want file %s saying %q", cfg.Error, bad, tt.reason)
			}

			start := time.Now()
			if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- p.cmd.Wait() }()
			var exitErr error
			select {
			case exitErr = <-done:
			case <-time.After(sigtermBudget):
				_ = p.cmd.Process.Kill()
				<-done
				t.Fatalf("still running %s after SIGTERM; log:\n%s", time.Since(start).Round(time.Millisecond), p.logs)
			}
			// It ended; exit status 0 says the shutdown was orderly, not
			// cut short at shutdownDeadline.
			if exitErr != nil {
				t.Errorf("exit after SIGTERM: %v after %s, want status 0; log:\n%s", exitErr, time.Since(start).Round(time.Millisecond), p.logs)
			}
		})
	}
}

// A settings file swapped for a named pipe at run time used to make
// POST /api/v1/config/reload hang; now it answers with the problem and the
// last good configuration keeps running.
func TestReloadOfAFIFOAnswers(t *testing.T) {
	settings := writeSettings(t, map[string]any{"mine": demoServer()})
	p := launch(t, t.TempDir(), "--settings", settings)
	p.events("mine", isState("connected"))
	fifo := filepath.Join(filepath.Dir(settings), "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(fifo, settings); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, p.url+handlers.PathConfigReload, nil)
	resp, err := http.DefaultClient.Do(p.authorize(req))
	if err != nil {
		t.Fatalf("reload did not answer: %v", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var cfg handlers.ConfigDTO
	if err := json.Unmarshal(body, &cfg); resp.StatusCode != http.StatusOK || err != nil {
		t.Fatalf("reload: %d %s (%v)", resp.StatusCode, body, err)
	}
	if cfg.Error == nil || cfg.Error.File != settings || cfg.Error.Message != "not a regular file (named pipe)" {
		t.Errorf("config error %+v, want %s: not a regular file (named pipe)", cfg.Error, settings)
	}
	if s := p.status("mine"); s.State != "connected" {
		t.Errorf("mine is %s after the refused reload, want still connected", s.State)
	}
}
