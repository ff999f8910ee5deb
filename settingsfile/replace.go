package settingsfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// replaceFile writes data to a temporary file beside path and renames it
// over path, so that a reader, or the file after a crash, holds either the
// old bytes or the new ones and never a mix. The data and the rename are
// both synced before it returns.
func replaceFile(path string, data []byte, perm fs.FileMode) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return err
	}
	renamed := false
	defer func() {
		if err != nil && !renamed {
			err = errors.Join(err, os.Remove(tmp.Name()))
		}
	}()
	// CreateTemp makes the file 0600; Chmod is not subject to the umask, so
	// the new file gets exactly the old one's permissions.
	if err := tmp.Chmod(perm); err != nil {
		return errors.Join(err, tmp.Close())
	}
	if _, err := tmp.Write(data); err != nil {
		return errors.Join(err, tmp.Close())
	}
	if err := tmp.Sync(); err != nil {
		return errors.Join(err, tmp.Close())
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	renamed = true
	return syncDir(dir)
}
