package fswatch

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// waitHandled returns once the loop has handled an event for name.
func (r *rig) waitHandled(name string) {
	r.t.Helper()
	deadline := time.After(guard)
	for {
		select {
		case got := <-r.handled:
			if got == name {
				return
			}
		case <-deadline:
			r.t.Fatalf("watcher never saw %s", name)
		}
	}
}

// A settings directory that does not exist yet, two levels deep, is
// waited for: the watch follows each level as it is created, and once the
// directory exists its file's edits are seen.
func TestDirectoryCreatedLaterIsWatched(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	dir := filepath.Join(root, "config", "switchboard")
	path := filepath.Join(dir, "settings.json")
	r := start(t, path)

	for _, d := range []string{filepath.Dir(dir), dir} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		r.waitHandled(d) // the loop has moved the watch onto d
	}
	r.expectQuiet() // directories alone are no change

	write(t, path, `{"mcpServers":{}}`)
	r.settle(dir)
	r.fire()
	r.expectChange(path)
	r.expectQuiet()
}

// A file written straight after its directory was created, before the
// watch could move onto the directory, is still reported, exactly once.
func TestFileInANewDirectoryIsReportedOnArrival(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	dir := filepath.Join(root, ".switchboard")
	path := filepath.Join(dir, "settings.json")
	r := start(t, path)

	settingsIn(t, dir) // mkdir and write at once
	r.waitHandled(dir)
	r.settle(dir) // whatever events the file caused after the watch moved
	r.fire()
	r.expectChange(path)
	r.expectQuiet()
}

// A settings directory removed and created again is watched again.
func TestRemovedDirectoryIsWaitedFor(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	dir := filepath.Join(root, ".switchboard")
	path := settingsIn(t, dir)
	r := start(t, path)

	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	r.waitHandled(dir)
	r.settle(root) // the parent stands in for the directory now
	r.fire()       // the removed file is a change
	r.expectChange(path)

	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	r.waitHandled(dir)
	r.expectQuiet()
	write(t, path, `{"mcpServers":{"a":{}}}`)
	r.settle(dir)
	r.fire()
	r.expectChange(path)
	r.expectQuiet()
}

// A settings directory moved away and made again at once (a checkout, a
// deploy script) is watched anew: the old watch went with the old
// directory, and the new one's edits are seen.
func TestDirectoryReplacedAtOnceIsWatchedAnew(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	dir := filepath.Join(root, ".switchboard")
	path := settingsIn(t, dir)
	r := start(t, path)

	if err := os.Rename(dir, dir+".old"); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	r.waitHandled(dir)
	write(t, path, `{"mcpServers":{"a":{}}}`)
	r.settle(dir) // only a watch on the new directory sees this
	r.fire()
	r.expectChange(path)
	r.expectQuiet()
}
