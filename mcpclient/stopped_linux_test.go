//go:build linux

package mcpclient_test

import (
	"context"
	"errors"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/mcpclient"
)

func TestStdioHungServerFailsProbeWithTimeout(t *testing.T) {
	t.Parallel()
	for _, version := range []string{mcp.ProtocolVersion20251125, mcp.ProtocolVersion20260728} {
		t.Run(version, func(t *testing.T) {
			t.Parallel()
			s := connect(t, mcpclient.New(mcpclient.Options{ProtocolVersion: version}), demoStdio(), nil)
			pid := mcpclient.PIDOf(s)
			if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGCONT) })
			waitStopped(t, pid)
			ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
			defer cancel()
			err := s.Probe(ctx)
			if got := domain.Categorize(err); got != domain.CategoryTimeout || !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("Probe on a stopped server = %v (%s), want a timeout wrapping the deadline", err, got)
			}
			if err := syscall.Kill(pid, syscall.SIGCONT); err != nil {
				t.Fatal(err)
			}
			if err := s.Probe(connectCtx(t)); err != nil {
				t.Errorf("Probe after SIGCONT: %v", err)
			}
		})
	}
}

// waitStopped blocks until the child pid has actually stopped: kill
// returns before a busy process gets round to it, and a probe sent in
// between is answered. WNOWAIT leaves the state for anyone else.
func waitStopped(t *testing.T, pid int) {
	t.Helper()
	const (
		pPID    = 1
		wNoWait = 0x01000000
	)
	var info [128]byte // siginfo_t
	for {
		_, _, errno := syscall.Syscall6(syscall.SYS_WAITID, pPID, uintptr(pid),
			uintptr(unsafe.Pointer(&info[0])), syscall.WSTOPPED|wNoWait, 0, 0)
		switch errno {
		case 0:
			return
		case syscall.EINTR:
			continue
		default:
			t.Fatalf("waitid(%d, WSTOPPED): %v", pid, errno)
		}
	}
}
