//go:build unix

package mcpclient

import (
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// TestStdoutEndedWhileRunningEndsTheSession checks that a server whose
// stdout closed but which keeps running past the grace period ends its
// session with that cause, and that its exit is still seen afterwards.
func TestStdoutEndedWhileRunningEndsTheSession(t *testing.T) {
	p, err := startProcess(domain.ServerConfig{Name: "s", Command: "sleep", Args: []string{"30"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := newSession(slog.New(slog.DiscardHandler), 50*time.Millisecond)
	s.proc = p
	after := make(chan struct{})
	p.watch(func() {
		defer close(after)
		s.afterExit()
	})
	defer func() {
		p.terminate()
		<-after
		p.release()
	}()
	s.stdoutEnded()
	select {
	case <-s.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the session did not end")
	}
	if err := s.Err(); err == nil || !strings.Contains(err.Error(), "closed its stdout but kept running") {
		t.Errorf("Err() = %v, want the closed stdout", err)
	}
	if p.hasExited() {
		t.Error("the server was stopped by the check itself")
	}
}
