package settingsfile_test

import (
	"os"
	"path/filepath"
	"testing"
)

// writeSettings writes content to dir/settings.json with exactly perm.
func writeSettings(t *testing.T, dir, content string, perm os.FileMode) string {
	t.Helper()
	path := filepath.Join(dir, "settings.json")
	if err := os.WriteFile(path, []byte(content), perm); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, perm); err != nil { // WriteFile is subject to the umask
		t.Fatal(err)
	}
	return path
}

// env returns a getenv over m.
func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// noEnv is a getenv with nothing set.
func noEnv(string) string { return "" }

// dirNames lists a directory, to catch temporary files left behind.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}
