//go:build linux || darwin

package settingsfile_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/settingsfile"
)

// patience bounds a wait for something that should return at once; it
// only stops a broken test from hanging the suite.
const patience = 30 * time.Second

// withinPatience runs f and fails the test if it does not return in time:
// the bug this guards against is a read that blocks forever.
func withinPatience(t *testing.T, what string, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(patience):
		t.Fatalf("%s did not return within %s", what, patience)
		return nil
	}
}

// unreadable sets up a path that is not a settings file Switchboard may
// read, and says what the error must say about it.
type unreadable struct {
	name   string
	setup  func(t *testing.T, path string)
	target error
	reason string
}

func unreadables() []unreadable {
	mkfifo := func(t *testing.T, path string) {
		if err := syscall.Mkfifo(path, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	symlink := func(to string) func(t *testing.T, path string) {
		return func(t *testing.T, path string) {
			if err := os.Symlink(to, path); err != nil {
				t.Fatal(err)
			}
		}
	}
	return []unreadable{
		{"fifo", mkfifo, settingsfile.ErrNotRegular, "not a regular file (named pipe)"},
		{"symlink-to-fifo", func(t *testing.T, path string) {
			fifo := filepath.Join(filepath.Dir(path), "pipe")
			mkfifo(t, fifo)
			symlink(fifo)(t, path)
		}, settingsfile.ErrNotRegular, "not a regular file (named pipe)"},
		{"symlink-to-dev-zero", symlink("/dev/zero"), settingsfile.ErrNotRegular, "not a regular file (character device)"},
		{"dev-null", func(t *testing.T, path string) { symlink("/dev/null")(t, path) },
			settingsfile.ErrNotRegular, "not a regular file (character device)"},
		{"directory", func(t *testing.T, path string) {
			if err := os.Mkdir(path, 0o700); err != nil {
				t.Fatal(err)
			}
		}, settingsfile.ErrNotRegular, "not a regular file (directory)"},
		{"oversized", func(t *testing.T, path string) {
			// Sparse: the size is what is checked, so no disk is used.
			f, err := os.Create(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if err := f.Truncate(settingsfile.MaxFileSize + 1); err != nil {
				t.Fatal(err)
			}
		}, settingsfile.ErrTooLarge, "larger than 4 MiB"},
		{"oversized-behind-symlink", func(t *testing.T, path string) {
			big := filepath.Join(filepath.Dir(path), "big.json")
			if err := os.WriteFile(big, []byte("{}"), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Truncate(big, 100<<20); err != nil {
				t.Fatal(err)
			}
			symlink(big)(t, path)
		}, settingsfile.ErrTooLarge, "larger than 4 MiB"},
	}
}

func TestLoadRefusesAnythingButARegularFile(t *testing.T) {
	for _, tt := range unreadables() {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "settings.json")
			tt.setup(t, path)
			err := withinPatience(t, "Load", func() error {
				_, err := settingsfile.Load(path, noEnv)
				return err
			})
			if !errors.Is(err, tt.target) {
				t.Fatalf("got %v, want an error wrapping %v", err, tt.target)
			}
			var fe *settingsfile.FileError
			if !errors.As(err, &fe) || fe.Path != path || fe.Reason != tt.reason {
				t.Errorf("got %#v, want a FileError for %s saying %q", fe, path, tt.reason)
			}
			if want := "settings file " + path + " is " + tt.reason; !strings.Contains(err.Error(), want) {
				t.Errorf("message %q, want it to contain %q", err, want)
			}
		})
	}
}

func TestRemoveServerRefusesAnythingButARegularFile(t *testing.T) {
	for _, tt := range unreadables() {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "settings.json")
			tt.setup(t, path)
			var ed settingsfile.Editor
			err := withinPatience(t, "RemoveServer", func() error { return ed.RemoveServer(t.Context(), path, "a") })
			if !errors.Is(err, tt.target) {
				t.Errorf("got %v, want an error wrapping %v", err, tt.target)
			}
		})
	}
}

// A named pipe with a writer waiting on the other end is still refused,
// and the writer's bytes are never read.
func TestLoadNeverReadsAFIFOWithAWriter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	// A non-blocking read end keeps the writer's open from blocking.
	rd, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	w, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, err := w.WriteString(`{"mcpServers": {"a": {"command": "x"}}}`); err != nil {
		t.Fatal(err)
	}
	err = withinPatience(t, "Load", func() error {
		_, err := settingsfile.Load(path, noEnv)
		return err
	})
	if !errors.Is(err, settingsfile.ErrNotRegular) {
		t.Errorf("got %v, want ErrNotRegular", err)
	}
}

// The limit is inclusive: a file of exactly MaxFileSize bytes loads.
func TestLoadAcceptsAFileAtTheLimit(t *testing.T) {
	head, tail := `{"mcpServers": {"a": {"command": "x"}}, "pad": "`, `"}`
	content := head + strings.Repeat("p", settingsfile.MaxFileSize-len(head)-len(tail)) + tail
	path := writeSettings(t, t.TempDir(), content, 0o600)
	set, err := settingsfile.Load(path, noEnv)
	if err != nil || len(set.Servers) != 1 {
		t.Errorf("got %d servers, %v; want a, loaded", len(set.Servers), err)
	}
}

// A symlink to a regular file is followed, as before.
func TestLoadFollowsASymlinkToARegularFile(t *testing.T) {
	dir := t.TempDir()
	target := writeSettings(t, dir, `{"mcpServers": {"a": {"command": "x"}}}`, 0o600)
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if set, err := settingsfile.Load(link, noEnv); err != nil || len(set.Servers) != 1 {
		t.Errorf("got %v, %v; want a loaded through the link", set.Servers, err)
	}
}

// A missing file, or a link to one, still says "does not exist", which
// callers read as "no settings yet".
func TestLoadMissingTargetIsNotExist(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "dangling.json")
	if err := os.Symlink(filepath.Join(dir, "gone.json"), link); err != nil {
		t.Fatal(err)
	}
	if _, err := settingsfile.Load(link, noEnv); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("got %v, want fs.ErrNotExist", err)
	}
}
