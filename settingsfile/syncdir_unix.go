//go:build !windows

package settingsfile

import (
	"errors"
	"os"
)

// syncDir flushes dir's entries to disk, so a rename in it survives a
// crash and the file is not found with its old contents afterwards.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	return errors.Join(d.Sync(), d.Close())
}
