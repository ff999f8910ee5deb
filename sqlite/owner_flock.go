//go:build linux || darwin || freebsd || openbsd || netbsd || dragonfly

package sqlite

import (
	"errors"
	"os"
	"syscall"
)

// haveFlock reports whether this platform can tell a live owner from a
// dead one.
const haveFlock = true

// tryLock takes an exclusive flock on f without waiting and reports
// whether it got it. flock, unlike fcntl locks, belongs to the open file,
// so two handles in one process exclude each other like two processes.
func tryLock(f *os.File) (bool, error) {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, syscall.EWOULDBLOCK):
			return false, nil
		case errors.Is(err, syscall.EINTR):
			continue
		default:
			return false, err
		}
	}
}
