//go:build unix && !linux

package main

import "syscall"

// daemonProcAttr puts switchboard in a process group of its own.
func daemonProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
