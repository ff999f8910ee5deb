//go:build windows

package settingsfile

// syncDir does nothing on Windows, which offers no way to flush a
// directory through os.File; the file's own data is still synced before
// the rename.
func syncDir(dir string) error { return nil }
