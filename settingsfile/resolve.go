package settingsfile

import (
	"path/filepath"
	"strings"
)

// ResolvePath is path with its symbolic links followed, as far as it
// exists: a directory not created yet is judged by where its deepest
// existing parent leads. Each ".." is taken after the link before it, as
// the kernel does, not lexically. It reads link targets only, never file
// contents; the approval dialog uses it (as a domain.PathResolver) to
// judge whether a working directory really lies inside the project.
func ResolvePath(path string) string {
	rest := ""
	for p := path; ; {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(real, rest)
		}
		i := strings.LastIndexByte(p, filepath.Separator)
		if i <= 0 {
			return filepath.Clean(path) // nothing of it resolves: judge it as written
		}
		rest = filepath.Join(p[i+1:], rest)
		p = p[:i]
	}
}
