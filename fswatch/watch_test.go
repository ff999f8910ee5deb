package fswatch

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// An unrelated file in the watched directory arms nothing; the next edit
// of the watched file is reported alone, exactly one debounce later.
func TestUnrelatedFileIsIgnored(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := settingsIn(t, dir)
	r := start(t, path)

	write(t, filepath.Join(dir, "other.json"), `{}`)
	write(t, filepath.Join(dir, "settings.json.bak"), `{}`)
	r.settle(dir)
	r.expectQuiet()

	write(t, path, `{"mcpServers":{"a":{}}}`)
	r.settle(dir)
	r.clock.WaitForTimer(t, DefaultDebounce)
	r.clock.Advance(DefaultDebounce - time.Millisecond)
	select {
	case c := <-r.w.Changes():
		t.Fatalf("got change %v before the debounce ended", c.Paths)
	default:
	}
	r.clock.Advance(time.Millisecond)
	r.expectChange(path)
	r.expectQuiet()
}

// A pure attribute change is not a content change.
func TestChmodIsIgnored(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := settingsIn(t, dir)
	r := start(t, path)

	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	r.settle(dir)
	r.expectQuiet()
}

// Files with the same name in different directories are told apart, and a
// Change lists them in the order they were given.
func TestTwoFilesInDifferentDirectories(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	user := settingsIn(t, filepath.Join(root, "user"))
	project := settingsIn(t, filepath.Join(root, "project"))
	r := start(t, user, project)

	write(t, project, `{"mcpServers":{"p":{}}}`)
	write(t, user, `{"mcpServers":{"u":{}}}`)
	r.settle(filepath.Dir(user))
	r.fire()
	r.expectChange(user, project)

	write(t, project, `{"mcpServers":{"q":{}}}`)
	r.settle(filepath.Dir(project))
	r.fire()
	r.expectChange(project)
	r.expectQuiet()
}

// Each event restarts the quiet period, so a slow save is reported once,
// after it ends, rather than in the middle.
func TestEachEventRestartsTheQuietPeriod(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := settingsIn(t, dir)
	r := start(t, path)

	write(t, path, `{"mcpServers":{"a":{}}}`)
	r.settle(dir)
	r.clock.WaitForTimer(t, DefaultDebounce)
	r.clock.Advance(200 * time.Millisecond)

	write(t, path, `{"mcpServers":{"b":{}}}`)
	r.settle(dir)
	r.clock.Advance(200 * time.Millisecond)
	select {
	case c := <-r.w.Changes():
		t.Fatalf("got change %v mid-burst", c.Paths)
	default:
	}
	r.fire()
	r.expectChange(path)
	r.expectQuiet()
}

// Replacing a symlinked settings file's link is seen; a write to its
// target elsewhere is not, as the package documents.
func TestSymlinkIsWatchedWhereTheLinkLives(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	linkDir, targetDir := filepath.Join(root, "config"), filepath.Join(root, "dotfiles")
	target := settingsIn(t, targetDir)
	if err := os.MkdirAll(linkDir, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(linkDir, "settings.json")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	r := start(t, link)

	write(t, target, `{"mcpServers":{"a":{}}}`)
	r.settle(linkDir)
	r.expectQuiet()

	next := settingsIn(t, filepath.Join(root, "dotfiles2"))
	tmp := filepath.Join(linkDir, ".settings.json.new")
	if err := os.Symlink(next, tmp); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, link); err != nil {
		t.Fatal(err)
	}
	r.settle(linkDir)
	r.fire()
	r.expectChange(link)
	r.expectQuiet()
}

// Close drops a burst still being debounced, closes Changes and can be
// called again.
func TestCloseStopsAndClosesChanges(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := settingsIn(t, dir)
	r := start(t, path)

	write(t, path, `{"mcpServers":{"a":{}}}`)
	r.settle(dir)
	if err := r.w.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	if c, ok := <-r.w.Changes(); ok {
		t.Fatalf("got change %v after Close, want Changes closed", c.Paths)
	}
	if err := r.w.Close(); err != nil {
		t.Fatalf("second close: got %v, want nil", err)
	}
}

// A done context stops the watcher as Close does.
func TestContextEndStopsTheWatcher(t *testing.T) {
	t.Parallel()
	path := settingsIn(t, t.TempDir())
	w, err := Watch(cancelled(), Options{Paths: []string{path}})
	if err != nil {
		t.Fatalf("watch: %v", err)
	}
	select {
	case _, ok := <-w.Changes():
		if ok {
			t.Fatal("got a change, want Changes closed")
		}
	case <-time.After(guard):
		t.Fatal("Changes not closed after the context ended")
	}
	if err := w.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
}

func TestNoPathsIsAnError(t *testing.T) {
	t.Parallel()
	if _, err := Watch(t.Context(), Options{}); err == nil {
		t.Fatal("got nil, want an error")
	}
}
