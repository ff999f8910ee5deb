//go:build unix

package mcpclient

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// groupAttr starts the server as the leader of a new process group, so
// that Close reaches whatever a wrapper such as npx or sh -c started.
func groupAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

// signalGroup sends sig to every process in the group; a group that is
// already empty is not an error.
func signalGroup(pgid int, sig syscall.Signal) error {
	err := syscall.Kill(-pgid, sig)
	if errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return err
}

// groupAlive reports whether a process of the group is still running.
// Zombies do not count: an orphan's zombie waits for init to reap it, and
// some container inits never do.
func groupAlive(pgid int) bool {
	if err := syscall.Kill(-pgid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return true // no /proc: trust kill, which counts zombies too
	}
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// The fields after the parenthesized command are: state, ppid, pgrp.
		i := bytes.LastIndexByte(stat, ')')
		if i < 0 {
			continue
		}
		fields := bytes.Fields(stat[i+1:])
		if len(fields) < 3 || string(fields[0]) == "Z" {
			continue
		}
		if pgrp, err := strconv.Atoi(string(fields[2])); err == nil && pgrp == pgid {
			return true
		}
	}
	return false
}

// exitSignal names the signal that ended a process, such as "SIGKILL", or
// returns "" when it exited by itself.
func exitSignal(st *os.ProcessState) string {
	if st == nil {
		return ""
	}
	ws, ok := st.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() {
		return ""
	}
	if name := unix.SignalName(ws.Signal()); name != "" {
		return name
	}
	return ws.Signal().String()
}
