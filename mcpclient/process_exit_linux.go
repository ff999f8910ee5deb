//go:build linux

package mcpclient

import (
	"os"

	"golang.org/x/sys/unix"
)

// awaitExit waits until the process pid has exited without holding an OS
// thread: it parks on a pidfd in the runtime's poller, which wakes when the
// process ends. A blocking wait would pin one thread per running server,
// each with its own stacks, which at a team's 200 servers is most of the
// runtime's thread memory. It reports false, at once, where pidfds are not
// available (Linux before 5.10), and the caller's blocking Wait does the
// waiting as before. It never reaps the process; Wait still does.
func awaitExit(pid int) bool {
	fd, err := unix.PidfdOpen(pid, unix.PIDFD_NONBLOCK)
	if err != nil {
		return false
	}
	// A non-blocking descriptor makes os.NewFile register it with the
	// poller.
	f := os.NewFile(uintptr(fd), "pidfd")
	defer f.Close()
	rc, err := f.SyscallConn()
	if err != nil {
		return false
	}
	err = rc.Read(func(fd uintptr) bool {
		// A pidfd is readable once its process has exited.
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, 0)
		return err != nil || (n > 0 && fds[0].Revents != 0)
	})
	return err == nil
}
