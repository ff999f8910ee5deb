package main

import "syscall"

// daemonProcAttr puts switchboard in a process group of its own, and has
// the kernel end it should this program be killed outright (the runner
// kills its shell on a timeout), so no daemon outlives its scenario.
func daemonProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
