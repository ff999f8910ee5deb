package mcpclient

import (
	"context"
	"fmt"
	"syscall"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

func (p *process) exitError() *domain.ConnError {
	code := -1
	if p.state != nil {
		code = p.state.ExitCode()
	}
	return &domain.ConnError{Category: domain.CategoryExited, ExitCode: code, Signal: exitSignal(p.state),
		Err: domain.ErrProcessExited}
}

// hasExited reports whether the server has exited already.
func (p *process) hasExited() bool {
	select {
	case <-p.exited:
		return true
	default:
		return false
	}
}

// exitedWithin waits up to d for the server to exit and reports whether
// it has.
func (p *process) exitedWithin(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.exited:
		return true
	case <-t.C:
	case <-ctx.Done():
	}
	return p.hasExited()
}

// terminate asks the whole group to end now; stop then finds it gone or
// going, and escalates as usual.
func (p *process) terminate() {
	if p.hasExited() {
		return
	}
	_ = signalGroup(p.pid, syscall.SIGTERM)
	_ = signalGroup(p.pid, syscall.SIGCONT)
}

// waitExit reports whether the server exited within d.
func (p *process) waitExit(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.exited:
		return true
	case <-t.C:
		return false
	}
}

// stop waits for the server to act on its closed stdin, then escalates to
// SIGTERM and SIGKILL of the whole group. SIGCONT follows SIGTERM so that a
// stopped server can act on it.
func (p *process) stop(grace time.Duration) error {
	if p.waitExit(grace) {
		return nil
	}
	_ = signalGroup(p.pid, syscall.SIGTERM)
	_ = signalGroup(p.pid, syscall.SIGCONT)
	if p.waitExit(grace) {
		return nil
	}
	_ = signalGroup(p.pid, syscall.SIGKILL)
	if p.waitExit(grace) {
		return nil
	}
	return fmt.Errorf("stop server (pid %d): still running after SIGKILL", p.pid)
}

// sweep ends what the group leader left behind once it has exited, the
// real server under a wrapper killed alone or a server's own children, and
// returns once they are gone. Nothing reports the exit of processes that
// are not our children, so it polls.
func (p *process) sweep(grace time.Duration) {
	if !groupAlive(p.pid) {
		return
	}
	_ = signalGroup(p.pid, syscall.SIGTERM)
	_ = signalGroup(p.pid, syscall.SIGCONT)
	if p.waitGroupGone(grace) {
		return
	}
	_ = signalGroup(p.pid, syscall.SIGKILL)
	p.waitGroupGone(grace)
}

// waitGroupGone reports whether the group emptied within d.
func (p *process) waitGroupGone(d time.Duration) bool {
	deadline := time.NewTimer(d)
	defer deadline.Stop()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for groupAlive(p.pid) {
		select {
		case <-tick.C:
		case <-deadline.C:
			return false
		}
	}
	return true
}

// release closes our ends of the pipes, which unblocks readers when a
// process that escaped the group still holds the other ends.
func (p *process) release() {
	closeFiles(p.stdin, p.stdout, p.stderr)
}
