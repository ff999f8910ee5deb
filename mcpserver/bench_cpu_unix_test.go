//go:build unix

package mcpserver_test

import (
	"syscall"
	"time"
)

// processCPU is the CPU time this process has used, user and system: on a
// machine busy with other work it says what a call costs better than the
// wall clock does.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
