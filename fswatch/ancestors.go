package fswatch

import (
	"os"
	"path/filepath"
	"strings"
)

// nearestExisting returns dir if it is an existing directory, else its
// nearest ancestor that is. A settings directory that does not exist yet
// is waited for there: its creation is an event in that ancestor.
func nearestExisting(dir string) string {
	for {
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return dir
		}
		dir = parent
	}
}

// onTheWay reports whether name is dir or one of its ancestors, so that
// creating, removing or renaming it can change which directory stands in
// for dir.
func onTheWay(name, dir string) bool {
	return name == dir || strings.HasPrefix(dir, strings.TrimSuffix(name, string(filepath.Separator))+string(filepath.Separator))
}
