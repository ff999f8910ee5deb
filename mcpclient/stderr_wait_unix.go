//go:build unix

package mcpclient

import (
	"os"

	"golang.org/x/sys/unix"
)

// awaitReadable waits, parked in the runtime's poller and without a
// buffer, until f has something to read, has ended or has been closed. It
// returns at once where f is not pollable; the caller's read then blocks
// as it would have anyway.
func awaitReadable(f *os.File) {
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	_ = rc.Read(func(fd uintptr) bool {
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, 0)
		return err != nil || (n > 0 && fds[0].Revents != 0)
	})
}
