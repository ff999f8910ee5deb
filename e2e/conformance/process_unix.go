//go:build unix

package main

import (
	"os/exec"
	"syscall"
)

// signalGroup sends SIGTERM (or SIGKILL when kill is set) to the daemon's
// process group, so that the servers it started stop with it.
func signalGroup(cmd *exec.Cmd, kill bool) error {
	if cmd.Process == nil {
		return errNoProcess
	}
	sig := syscall.SIGTERM
	if kill {
		sig = syscall.SIGKILL
	}
	return syscall.Kill(-cmd.Process.Pid, sig)
}
