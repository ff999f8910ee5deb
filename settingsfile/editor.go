package settingsfile

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/switchboard-mcp/switchboard/domain"
)

// Editor changes settings files in place. The zero value is ready to use;
// share one Editor across the process, since its lock is what keeps two
// edits from both starting from the same old bytes and one undoing the
// other. Edits are rare and quick, so one lock for every file is simpler
// than one per path and cannot be fooled by two paths naming the same file.
// Another program writing the file at the same moment is not locked out.
type Editor struct {
	mu sync.Mutex // serializes read-modify-write of every file this Editor edits
}

var _ domain.SettingsEditor = (*Editor)(nil)

// RemoveServer deletes the named entry from the file at path and leaves
// every other byte as it was. The file is replaced atomically, keeping its
// permissions; when path is a symlink the link's target is replaced, so the
// link survives. An unknown name is an error wrapping domain.ErrNotFound.
func (e *Editor) RemoveServer(ctx context.Context, path, name string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("remove %q from %s: %w", name, path, err)
	}
	e.mu.Lock()
	defer e.mu.Unlock()

	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return fmt.Errorf("remove %q from %s: %w", name, path, err)
	}
	info, err := os.Stat(target)
	if err != nil {
		return fmt.Errorf("remove %q from %s: %w", name, path, err)
	}
	data, err := readFile(target)
	if err != nil {
		return fmt.Errorf("remove %q from %s: %w", name, path, err)
	}
	bom, body := splitBOM(data)
	edited, err := domain.RemoveServerEntry(path, body, name)
	if err != nil {
		return err // already names the server and the file
	}
	out := make([]byte, 0, len(bom)+len(edited))
	out = append(append(out, bom...), edited...)
	if err := replaceFile(target, out, info.Mode().Perm()); err != nil {
		return fmt.Errorf("remove %q from %s: %w", name, path, err)
	}
	return nil
}
