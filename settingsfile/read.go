package settingsfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// MaxFileSize bounds a settings file. Real ones are a few kilobytes; the
// bound is what keeps a project's .mcp.json that links to /dev/zero, or a
// runaway generator, from exhausting memory before anyone is asked.
const MaxFileSize = 4 << 20

// Sentinels a FileError wraps, for errors.Is.
var (
	ErrNotRegular = errors.New("not a regular file")
	ErrTooLarge   = errors.New("settings file too large")
)

// FileError says why a file was refused before it was read.
type FileError struct {
	What   string // "settings file", "token file"
	Path   string
	Reason string // without the path: "not a regular file (named pipe)"
	Err    error  // ErrNotRegular or ErrTooLarge
}

func (e *FileError) Error() string { return e.What + " " + e.Path + " is " + e.Reason }

func (e *FileError) Unwrap() error { return e.Err }

// readFile reads a settings file only when it is a regular file of at most
// MaxFileSize bytes. Symlinks are followed, but the target must be a
// regular file too. The type is checked before opening, and the open is
// non-blocking, so a named pipe (even one swapped in between the check and
// the open) can never block the caller, and a device is never read. Errors
// from the file system keep their cause (fs.ErrNotExist among them).
func readFile(path string) ([]byte, error) {
	return ReadRegular("settings file", path, MaxFileSize)
}

// ReadRegular reads the file at path, named what in errors, only when it
// is a regular file of at most max bytes, in the way readFile describes:
// for any small file a person or a host app names, such as a token file.
func ReadRegular(what, path string, max int64) ([]byte, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := checkInfo(what, path, info, max); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// Check again what was opened: the path may have changed since the Stat.
	if info, err = f.Stat(); err != nil {
		return nil, err
	}
	if err := checkInfo(what, path, info, max); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if int64(len(data)) > max { // it grew after the Stat
		return nil, tooLarge(what, path, max)
	}
	return data, nil
}

// checkInfo refuses anything but a regular file within max bytes.
func checkInfo(what, path string, info fs.FileInfo, max int64) error {
	if !info.Mode().IsRegular() {
		return &FileError{What: what, Path: path, Reason: fmt.Sprintf("not a regular file (%s)", kindOf(info.Mode())), Err: ErrNotRegular}
	}
	if info.Size() > max {
		return tooLarge(what, path, max)
	}
	return nil
}

func tooLarge(what, path string, max int64) error {
	size := fmt.Sprintf("%d bytes", max)
	if max%(1<<20) == 0 {
		size = fmt.Sprintf("%d MiB", max>>20)
	}
	return &FileError{What: what, Path: path, Reason: "larger than " + size, Err: ErrTooLarge}
}

// kindOf names a file type the way a person would.
func kindOf(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "directory"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeCharDevice != 0:
		return "character device"
	case m&fs.ModeDevice != 0:
		return "block device"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	}
	return "irregular file"
}
