//go:build !unix

package main

import (
	"os/exec"
	"syscall"
)

// daemonProcAttr leaves the process attributes as they are where process
// groups are not available.
func daemonProcAttr() *syscall.SysProcAttr { return nil }

// signalGroup kills the daemon itself where process groups are not
// available.
func signalGroup(cmd *exec.Cmd, _ bool) error {
	if cmd.Process == nil {
		return errNoProcess
	}
	return cmd.Process.Kill()
}
