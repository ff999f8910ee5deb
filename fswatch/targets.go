package fswatch

import (
	"errors"
	"fmt"
	"path/filepath"
)

// targets knows which event names are watched files and which directories
// to watch for them.
type targets struct {
	paths  []string          // the paths as given, without duplicates, in order
	byName map[string]string // absolute clean path -> path as given
	dirs   []string          // absolute directories, each once, in order
}

// newTargets resolves paths to absolute names, because fsnotify reports an
// event as the watched directory joined with the entry's name, and that is
// the only form two spellings of one file agree on.
func newTargets(paths []string) (targets, error) {
	if len(paths) == 0 {
		return targets{}, errors.New("no paths to watch")
	}
	tg := targets{byName: make(map[string]string, len(paths))}
	seenDir := make(map[string]bool)
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return targets{}, fmt.Errorf("resolve %s: %w", p, err)
		}
		if _, dup := tg.byName[abs]; dup {
			continue
		}
		tg.byName[abs] = p
		tg.paths = append(tg.paths, p)
		if dir := filepath.Dir(abs); !seenDir[dir] {
			seenDir[dir] = true
			tg.dirs = append(tg.dirs, dir)
		}
	}
	return tg, nil
}

// onTheWay reports whether name is a settings directory or an ancestor of
// one, whose creation or removal can move a watch.
func (tg targets) onTheWay(name string) bool {
	for _, d := range tg.dirs {
		if onTheWay(name, d) {
			return true
		}
	}
	return false
}
