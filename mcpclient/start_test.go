package mcpclient_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/mcpclient"
)

// slowStarter is a server that says what it is doing on stderr and then
// takes longer than any limit here to answer, ignoring its closed stdin the
// way npm does while it downloads.
func slowStarter(pidFile string) domain.ServerConfig {
	return domain.ServerConfig{Name: "slow", Transport: domain.TransportStdio, Command: "sh",
		Args: []string{"-c", `echo $$ > "$PID_FILE"; echo "fetching packages" >&2; sleep 60`},
		Env:  map[string]string{"PID_FILE": pidFile}}
}

// A start cut off by its limit fails when the limit passes, not after the
// grace periods of stopping the process (the ~2x delay npx -y entries saw),
// and says which limit and setting ended it.
func TestStdioSlowStartFailsWhenItsLimitPasses(t *testing.T) {
	t.Parallel()
	const limit = time.Second
	tests := []struct {
		name  string
		cause error // the supervisor's cause; nil: a plain deadline
		want  string
	}{
		{"supervisor-limit", &domain.HandshakeTimeoutError{Limit: limit, Setting: "startTimeoutSeconds", Step: domain.StepInitialize},
			"no answer to initialize within 1s (startTimeoutSeconds)"},
		{"caller-deadline", nil, "no answer to initialize within 1s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			pidFile := filepath.Join(t.TempDir(), "pid")
			// The default grace is 3 s: waiting it out would land past the
			// bound checked below.
			c := mcpclient.New(mcpclient.Options{})
			ctx, cancel := context.WithTimeoutCause(context.Background(), limit, tt.cause)
			defer cancel()
			start := time.Now()
			s, err := c.Connect(ctx, slowStarter(pidFile), nil)
			elapsed := time.Since(start)
			if err == nil {
				_ = s.Close()
				t.Fatal("Connect succeeded, want a timeout")
			}
			var hte *domain.HandshakeTimeoutError
			if !errors.As(err, &hte) || domain.Categorize(err) != domain.CategoryTimeout {
				t.Fatalf("error %T %v, want a handshake timeout", err, err)
			}
			if err.Error() != tt.want || hte.Limit != limit || hte.Exited {
				t.Errorf("error %q (limit %v, exited %v), want %q, 1s, not exited", err, hte.Limit, hte.Exited, tt.want)
			}
			// Generous for a loaded machine, yet below limit + KillGrace.
			if elapsed < limit || elapsed > limit+2*time.Second {
				t.Errorf("Connect returned after %v, want soon after the %v limit", elapsed, limit)
			}
			if pid := readPID(t, pidFile); !pidGone(pid) {
				t.Errorf("server (pid %d) still runs after the failed start", pid)
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		})
	}
}

// A server that exited while something it left behind held its pipes open
// fails as a crash, never as a slow start: either its exit is noticed
// first, or the limit cuts it off and notes that it had exited on its own.
func TestStdioCutOffStartNotesAnExitedServer(t *testing.T) {
	t.Parallel()
	pidFile := filepath.Join(t.TempDir(), "pid")
	cfg := domain.ServerConfig{Name: "quitter", Transport: domain.TransportStdio, Command: "sh",
		// setsid takes the sleep out of the process group, so nothing
		// sweeps it and it keeps the pipes open after sh exits.
		Args: []string{"-c", `setsid sleep 60 & echo $! > "$PID_FILE"; exit 0`},
		Env:  map[string]string{"PID_FILE": pidFile}}
	ctx, cancel := context.WithTimeoutCause(context.Background(), 2*time.Second,
		&domain.HandshakeTimeoutError{Limit: 2 * time.Second, Setting: "startTimeoutSeconds"})
	defer cancel()
	_, err := mcpclient.New(mcpclient.Options{KillGrace: 200 * time.Millisecond}).Connect(ctx, cfg, nil)
	if pid := readPID(t, pidFile); !pidGone(pid) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	var hte *domain.HandshakeTimeoutError
	var ce *domain.ConnError
	switch {
	case errors.As(err, &hte):
		if !hte.Exited {
			t.Errorf("error %v: a handshake timeout that does not note the exit", err)
		}
	case errors.As(err, &ce):
		if ce.Category != domain.CategoryExited || ce.Signal != "" {
			t.Errorf("error %v (%s, signal %q), want the server's own exit", err, ce.Category, ce.Signal)
		}
	default:
		t.Errorf("error %T %v, want the server's exit or a timeout noting it", err, err)
	}
}

// kill -9 says "killed by SIGKILL"; what the server last wrote to stderr
// (here its start-up banner) stays out of the error, for the supervisor to
// show as context.
func TestStdioKillBySignalIsNamedNotBlamedOnStderr(t *testing.T) {
	t.Parallel()
	cfg := demoStdio()
	cfg.Command, cfg.Args = "sh", []string{"-c", `echo "demo server ready on stdio" >&2; exec "$0"`, os.Args[0]}
	stderr := domain.NewLineRing(20)
	s := connect(t, mcpclient.New(mcpclient.Options{}), cfg, stderr)
	if err := syscall.Kill(mcpclient.PIDOf(s), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	ce := waitDone(t, s)
	if ce.Category != domain.CategoryExited || ce.Signal != "SIGKILL" || ce.Error() != "killed by SIGKILL" {
		t.Errorf("Err() = %q (category %s, signal %q), want \"killed by SIGKILL\", exited", ce, ce.Category, ce.Signal)
	}
	// The supervisor adds the stderr tail; the message must not take it in.
	ce.StderrTail = stderr.Lines()
	if !slices.Contains(ce.StderrTail, "demo server ready on stdio") {
		t.Errorf("stderr = %q, want the banner", ce.StderrTail)
	}
	if strings.Contains(ce.Error(), "ready") {
		t.Errorf("error %q shows the banner as if it were the cause", ce.Error())
	}
}

// An exit code still reads as before, with the stderr tail as its story.
func TestExitCodeMessageKeepsStderrTail(t *testing.T) {
	ce := &domain.ConnError{Category: domain.CategoryExited, ExitCode: 2, Err: domain.ErrProcessExited,
		StderrTail: []string{"panic: boom"}}
	if got, want := ce.Error(), "exited (code 2): panic: boom"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	ce = &domain.ConnError{Category: domain.CategoryExited, ExitCode: -1, Signal: "SIGTERM", StderrTail: []string{"npm error signal SIGTERM"}}
	if got, want := fmt.Sprint(ce), "killed by SIGTERM"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}
