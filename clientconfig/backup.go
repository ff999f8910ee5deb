package clientconfig

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/settingsfile"
)

// BackupSuffix marks the copies Apply keeps beside a client's file; a
// timestamp follows, so they sort by age.
const BackupSuffix = ".switchboard-backup-"

// writeClientConfig replaces the file at path, whose bytes were old (nil
// when it did not exist), with edited, after copying old to a timestamped
// backup beside it. It returns the backup's path, empty when there was no
// file.
func writeClientConfig(path string, old, edited []byte, now time.Time) (string, error) {
	perm := fs.FileMode(0o600)
	backup := ""
	if info, err := os.Stat(path); err == nil {
		perm = info.Mode().Perm()
		var err error
		if backup, err = writeBackup(path, old, perm, now); err != nil {
			return "", fmt.Errorf("back up %s: %w", path, err)
		}
	} else if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", err
	}
	if err := atomicWrite(path, edited, perm); err != nil {
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	return backup, nil
}

// writeBackup writes data to a new backup of path named after now, and
// never over an existing one: two changes within one millisecond (a
// retried request, two terminals) would otherwise replace the backup of
// the original file with a copy of the first change. A taken name moves
// the time on by a millisecond, so the names still sort by age.
func writeBackup(path string, data []byte, perm fs.FileMode, now time.Time) (string, error) {
	for range 1000 {
		name := path + BackupSuffix + now.UTC().Format("20060102T150405.000Z")
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			now = now.Add(time.Millisecond)
			continue
		}
		if err != nil {
			return "", err
		}
		_, err = f.Write(data)
		if serr := f.Sync(); err == nil {
			err = serr
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			_ = os.Remove(name)
			return "", err
		}
		return name, nil
	}
	return "", fmt.Errorf("no free backup name beside %s", path)
}

// newestBackup is the backup of path an undo restores; empty when none.
func newestBackup(path string) string {
	found, _ := filepath.Glob(globEscape(path) + BackupSuffix + "*")
	found = slices.DeleteFunc(found, func(p string) bool {
		return strings.HasSuffix(p, manifestSuffix) || strings.Contains(filepath.Base(p), ".tmp-")
	})
	if len(found) == 0 {
		return ""
	}
	slices.Sort(found)
	return found[len(found)-1]
}

// globEscape quotes the pattern characters a path may hold, so the glob
// matches that path literally.
func globEscape(p string) string {
	r := strings.NewReplacer(`*`, `\*`, `?`, `\?`, `[`, `\[`)
	if filepath.Separator == '\\' {
		r = strings.NewReplacer(`*`, `[*]`, `?`, `[?]`, `[`, `[[]`)
	}
	return r.Replace(p)
}

// Undo puts the newest backup of the client's file at path back in its
// place, then takes out of Switchboard's settings the servers the import
// that made the backup added, unless they were edited since: those stay,
// and the result names them.
func (f *Files) Undo(ctx context.Context, path string) (domain.ClientUndoResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var res domain.ClientUndoResult
	if err := ctx.Err(); err != nil {
		return res, err
	}
	backup := newestBackup(path)
	if backup == "" {
		return res, fmt.Errorf("%s: %w", path, domain.ErrNothingToUndo)
	}
	data, err := settingsfile.ReadRegular("backup", backup, MaxClientFileSize)
	if err != nil {
		return res, err
	}
	m, err := readManifest(backup)
	if err != nil {
		return res, err
	}
	perm := fs.FileMode(0o600)
	if info, err := os.Stat(backup); err == nil {
		perm = info.Mode().Perm()
	}
	if err := atomicWrite(path, data, perm); err != nil {
		return res, fmt.Errorf("restore %s: %w", path, err)
	}
	res.Backup = backup // restored: the result says so from here on
	if err := os.Remove(res.Backup); err != nil {
		return res, err
	}
	if len(m.Servers) == 0 {
		return res, nil
	}
	now, err := settingsServers(m.Settings)
	if err != nil {
		return res, fmt.Errorf("take the imported servers out again: %w", err)
	}
	var errs []error
	for _, name := range slices.Sorted(maps.Keys(m.Servers)) {
		if cur, ok := now[name]; !ok || !sameJSON(cur, m.Servers[name]) {
			res.Kept = append(res.Kept, name)
			continue
		}
		if err := f.opts.Editor.RemoveServer(ctx, m.Settings, name); err != nil {
			errs = append(errs, err)
			res.Kept = append(res.Kept, name)
			continue
		}
		res.Removed = append(res.Removed, name)
	}
	if err := errors.Join(errs...); err != nil {
		return res, err
	}
	if err := os.Remove(res.Backup + manifestSuffix); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return res, err
	}
	return res, nil
}

// sameJSON reports whether a and b differ only in layout.
func sameJSON(a, b json.RawMessage) bool {
	var ca, cb bytes.Buffer
	return json.Compact(&ca, a) == nil && json.Compact(&cb, b) == nil && bytes.Equal(ca.Bytes(), cb.Bytes())
}

// atomicWrite writes data to a temporary file beside path and renames it
// into place, so the client never reads half a config.
func atomicWrite(path string, data []byte, perm fs.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	_, werr := tmp.Write(data)
	if err := errors.Join(werr, tmp.Chmod(perm), tmp.Sync(), tmp.Close()); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
