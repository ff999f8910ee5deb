package mcpclient_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/mcpclient"
)

func TestStdioDemoListsWhatTheServerOffers(t *testing.T) {
	t.Parallel()
	want := demoNames(t)
	for _, version := range []string{mcp.ProtocolVersion20251125, mcp.ProtocolVersion20260728} {
		t.Run(version, func(t *testing.T) {
			t.Parallel()
			c := mcpclient.New(mcpclient.Options{ProtocolVersion: version})
			s := connect(t, c, demoStdio(), nil)
			if got := s.ProtocolVersion(); got != version {
				t.Errorf("ProtocolVersion() = %q, want %q", got, version)
			}
			caps := loadAll(t, s)
			if got := namesOf(caps); !got.equal(want) {
				t.Errorf("lists:\n got %+v\nwant %+v", got, want)
			}
			checkDemoConversion(t, caps)
			if err := s.Probe(connectCtx(t)); err != nil {
				t.Errorf("Probe: %v", err)
			}
		})
	}
}

// checkDemoConversion spot-checks fields the demo server is known to set.
func checkDemoConversion(t *testing.T, caps domain.Capabilities) {
	t.Helper()
	tools := map[string]domain.Tool{}
	for _, tool := range caps.Tools {
		tools[tool.Name] = tool
	}
	echo, del, weather := tools["echo"], tools["delete_note"], tools["structured_weather"]
	if echo.Title != "Echo" || echo.Risk() != domain.RiskLow || echo.OutputSchema != nil {
		t.Errorf("echo = title %q, risk %s, output schema %s; want Echo, low, none", echo.Title, echo.Risk(), echo.OutputSchema)
	}
	if !strings.Contains(string(echo.InputSchema), `"message"`) {
		t.Errorf("echo input schema = %s, want the message property", echo.InputSchema)
	}
	if del.Risk() != domain.RiskHigh || del.Annotations.IdempotentHint == nil || !*del.Annotations.IdempotentHint {
		t.Errorf("delete_note = risk %s, idempotent %v; want high, true", del.Risk(), del.Annotations.IdempotentHint)
	}
	if !strings.Contains(string(weather.OutputSchema), `"properties"`) {
		t.Errorf("structured_weather output schema = %s, want an object schema", weather.OutputSchema)
	}
	for _, r := range caps.Resources {
		if r.Size == nil || r.MIMEType == "" {
			t.Errorf("resource %s: size %v, MIME type %q; want both", r.URI, r.Size, r.MIMEType)
		}
	}
	i := slices.IndexFunc(caps.Prompts, func(p domain.Prompt) bool { return p.Name == "summarize" })
	if i < 0 {
		t.Fatalf("no summarize prompt in %+v", caps.Prompts)
	}
	want := []domain.PromptArgument{
		{Name: "topic", Description: "What to summarize.", Required: true},
		{Name: "style", Description: "How to write it, e.g. bullet points or one paragraph. Defaults to concise."},
	}
	if got := caps.Prompts[i].Arguments; !slices.Equal(got, want) {
		t.Errorf("summarize arguments = %+v, want %+v", got, want)
	}
}

func TestStdioEverythingListsAndAnnouncesChanges(t *testing.T) {
	t.Parallel()
	s := connect(t, mcpclient.New(mcpclient.Options{}), everythingStdio(t), nil)
	caps := loadAll(t, s)
	got := []int{len(caps.Tools), len(caps.Resources), len(caps.ResourceTemplates), len(caps.Prompts)}
	want := []int{everythingTools, everythingResources, everythingTemplates, everythingPrompts}
	if !slices.Equal(got, want) {
		t.Errorf("tools, resources, templates, prompts = %v, want %v", got, want)
	}
	// The tool registers its output as a new resource.
	_, err := s.CallTool(connectCtx(t), "gzip-file-as-resource",
		json.RawMessage(`{"name": "hello.txt.gz", "data": "data:text/plain;base64,aGVsbG8=", "outputType": "resourceLink"}`), nil)
	if err != nil {
		t.Fatalf("CallTool: %v", err)
	}
	waitChange(t, s, domain.ListResources)
}

func TestStdioFollowsPagesAndAnnouncesChanges(t *testing.T) {
	t.Parallel()
	for _, version := range []string{mcp.ProtocolVersion20251125, mcp.ProtocolVersion20260728} {
		t.Run(version, func(t *testing.T) {
			t.Parallel()
			s := connect(t, mcpclient.New(mcpclient.Options{ProtocolVersion: version}), fixtureStdio(), nil)
			if got := s.ProtocolVersion(); got != version {
				t.Errorf("ProtocolVersion() = %q, want %q", got, version)
			}
			caps, err := s.List(connectCtx(t), domain.ListTools)
			if err != nil {
				t.Fatalf("List: %v", err)
			}
			if got, want := len(caps.Tools), fixtureTools+1; got != want {
				t.Errorf("listed %d tools over pages of %d, want %d", got, fixturePageSize, want)
			}
			if _, err := s.CallTool(connectCtx(t), "grow", nil, nil); err != nil {
				t.Fatalf("CallTool(grow): %v", err)
			}
			waitChange(t, s, domain.ListTools)
			caps, err = s.List(connectCtx(t), domain.ListTools)
			if err != nil {
				t.Fatalf("List after grow: %v", err)
			}
			if got, want := len(caps.Tools), fixtureTools+2; got != want {
				t.Errorf("listed %d tools after grow, want %d", got, want)
			}
		})
	}
}

func TestStdioKilledServerEndsSession(t *testing.T) {
	t.Parallel()
	s := connect(t, mcpclient.New(mcpclient.Options{}), demoStdio(), nil)
	if err := syscall.Kill(mcpclient.PIDOf(s), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	ce := waitDone(t, s)
	if ce.Category != domain.CategoryExited || ce.ExitCode != -1 || !errors.Is(ce, domain.ErrProcessExited) {
		t.Errorf("Err() = %#v, want exited with code -1 and ErrProcessExited", ce)
	}
	var probe *domain.ConnError
	if err := s.Probe(connectCtx(t)); !errors.As(err, &probe) || probe.Category != domain.CategoryExited {
		t.Errorf("Probe after exit = %v, want the exit error", err)
	}
}

func TestStdioCrashingServerEndsWithItsExitCode(t *testing.T) {
	t.Parallel()
	c := mcpclient.New(mcpclient.Options{})
	// The crash may come before or after the handshake: either way it must
	// be reported as the exit it is.
	var ce *domain.ConnError
	stderr := domain.NewLineRing(20)
	s, err := c.Connect(connectCtx(t), demoStdio("--crash-every", "200ms"), stderr)
	if err != nil {
		if !errors.As(err, &ce) {
			t.Fatalf("Connect error %v, want a *domain.ConnError", err)
		}
	} else {
		defer s.Close()
		ce = waitDone(t, s)
	}
	if ce.Category != domain.CategoryExited || ce.ExitCode != 1 {
		t.Errorf("error = %#v, want exited with code 1", ce)
	}
	if lines := strings.Join(stderr.Lines(), "\n"); !strings.Contains(lines, "simulated crash") {
		t.Errorf("stderr = %q, want the crash message", lines)
	}
}

func TestStdioServerExitingAtStartFailsConnect(t *testing.T) {
	t.Parallel()
	stderr := domain.NewLineRing(20)
	cfg := domain.ServerConfig{Name: "quitter", Transport: domain.TransportStdio,
		Command: "sh", Args: []string{"-c", "echo config file missing >&2; exit 3"}}
	ce := connectErr(t, mcpclient.New(mcpclient.Options{}), cfg, stderr)
	if ce.Category != domain.CategoryExited || ce.ExitCode != 3 {
		t.Errorf("error = %#v, want exited with code 3", ce)
	}
	if got := stderr.Lines(); !slices.Equal(got, []string{"config file missing"}) {
		t.Errorf("stderr lines = %q, want the server's message", got)
	}
}

func TestStdioMissingCommandIsConfigError(t *testing.T) {
	t.Parallel()
	notExecutable := filepath.Join(t.TempDir(), "server.sh")
	if err := os.WriteFile(notExecutable, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		cfg  domain.ServerConfig
	}{
		{"not-on-path", domain.ServerConfig{Command: "switchboard-no-such-server"}},
		{"no-such-file", domain.ServerConfig{Command: "/nonexistent/server"}},
		{"not-executable", domain.ServerConfig{Command: notExecutable}},
		{"no-such-cwd", domain.ServerConfig{Command: "sh", Cwd: "/nonexistent/dir"}},
		{"empty", domain.ServerConfig{}},
	}
	c := mcpclient.New(mcpclient.Options{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.cfg.Name, tt.cfg.Transport = tt.name, domain.TransportStdio
			ce := connectErr(t, c, tt.cfg, nil)
			if ce.Category != domain.CategoryConfig || ce.Category.Transient() {
				t.Errorf("error = %v (%s), want config, not retried", ce, ce.Category)
			}
		})
	}
}

// A wrapper like npx or sh -c must not leave the real server behind.
func TestStdioCloseEndsTheWholeProcessGroup(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	serverPID, sleepPID := filepath.Join(dir, "server.pid"), filepath.Join(dir, "sleep.pid")
	cfg := demoStdio()
	// The sleep keeps the wrapper from exiting when the server does, so
	// Close has to signal the group. The server gets the wrapper's stdin
	// through fd 3, since sh gives background jobs /dev/null.
	cfg.Command, cfg.Args = "sh", []string{"-c",
		`sleep 600 & echo $! > "$SLEEP_PID"; exec 3<&0; "$0" <&3 3<&- & wait`, os.Args[0]}
	cfg.Env[pidFileEnv], cfg.Env["SLEEP_PID"] = serverPID, sleepPID
	c := mcpclient.New(mcpclient.Options{KillGrace: 200 * time.Millisecond})
	s, err := c.Connect(connectCtx(t), cfg, nil)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	// The server wrote its pid before serving, and the wrapper wrote the
	// sleep's before starting the server.
	pids := map[string]int{"wrapper": mcpclient.PIDOf(s), "server": readPID(t, serverPID), "sleep": readPID(t, sleepPID)}
	if err := s.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	for name, pid := range pids {
		if !pidGone(pid) {
			t.Errorf("%s (pid %d) still runs after Close", name, pid)
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
	select {
	case <-s.Done():
	default:
		t.Error("Done not closed after Close")
	}
}

func TestStdioKilledWrapperTakesServerWithIt(t *testing.T) {
	t.Parallel()
	serverPID := filepath.Join(t.TempDir(), "server.pid")
	cfg := demoStdio()
	cfg.Command, cfg.Args = "sh", []string{"-c", `exec 3<&0; "$0" <&3 3<&- & wait`, os.Args[0]}
	cfg.Env[pidFileEnv] = serverPID
	s := connect(t, mcpclient.New(mcpclient.Options{KillGrace: 200 * time.Millisecond}), cfg, nil)
	server := readPID(t, serverPID)
	if err := syscall.Kill(mcpclient.PIDOf(s), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if ce := waitDone(t, s); ce.Category != domain.CategoryExited || ce.ExitCode != -1 {
		t.Errorf("Err() = %#v, want exited with code -1", ce)
	}
	if err := s.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if !pidGone(server) {
		t.Errorf("server (pid %d) outlived its killed wrapper", server)
		_ = syscall.Kill(server, syscall.SIGKILL)
	}
}
