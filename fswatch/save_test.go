package fswatch

import (
	"os"
	"path/filepath"
	"testing"
)

// The ways editors and tools save a file; each must yield exactly one
// Change naming the file once.
var saves = []struct {
	name string
	save func(t *testing.T, path string)
}{
	{"atomic-rename-over", func(t *testing.T, path string) {
		tmp := filepath.Join(filepath.Dir(path), ".settings.json.tmp")
		write(t, tmp, `{"mcpServers":{"a":{}}}`)
		if err := os.Rename(tmp, path); err != nil {
			t.Fatal(err)
		}
	}},
	{"truncate-and-write", func(t *testing.T, path string) {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteString(`{"mcpServers":{"a":{}}}`); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}},
	{"delete-and-recreate", func(t *testing.T, path string) {
		if err := os.Remove(path); err != nil {
			t.Fatal(err)
		}
		write(t, path, `{"mcpServers":{"a":{}}}`)
	}},
	{"burst-of-writes", func(t *testing.T, path string) {
		for i := range 5 {
			write(t, path, `{"mcpServers":{}}`+string(rune('a'+i)))
		}
	}},
}

func TestSaveStylesYieldOneChange(t *testing.T) {
	for _, tc := range saves {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			path := settingsIn(t, dir)
			r := start(t, path)

			tc.save(t, path)
			r.settle(dir)
			r.fire()
			r.expectChange(path)
			r.expectQuiet()
		})
	}
}

// After the file is deleted and recreated the watch still sees edits,
// because it is on the directory and not on the deleted inode.
func TestRecreatedFileIsStillWatched(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := settingsIn(t, dir)
	r := start(t, path)

	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	write(t, path, `{"mcpServers":{"a":{}}}`)
	r.settle(dir)
	r.fire()
	r.expectChange(path)

	write(t, path, `{"mcpServers":{"b":{}}}`)
	r.settle(dir)
	r.fire()
	r.expectChange(path)
	r.expectQuiet()
}
