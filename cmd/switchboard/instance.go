package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/switchboard-mcp/switchboard/settingsfile"
)

// instanceFileName is the file in the data directory that tells
// `switchboard status` where the running instance listens, so a person
// need not remember the port (or know that port 0 was asked for).
const instanceFileName = "instance.json"

// maxInstanceFileBytes bounds what is read from the instance file.
const maxInstanceFileBytes = 64 << 10

// instanceInfo is the content of the instance file.
type instanceInfo struct {
	URL       string    `json:"url"`
	PID       int       `json:"pid"`
	StartedAt time.Time `json:"startedAt"`
	// TokenFile is --token-file when the host app chose one, so status
	// finds the token there too; empty when the token is DATA/token.
	TokenFile string `json:"tokenFile,omitempty"`
}

// writeInstance records info in the data directory atomically (a private
// temporary file renamed into place), so a reader never sees half a file.
func writeInstance(data string, info instanceInfo) error {
	if info.TokenFile != "" {
		if abs, err := filepath.Abs(info.TokenFile); err == nil {
			info.TokenFile = abs
		}
	}
	b, err := json.MarshalIndent(info, "", "  ")
	if err != nil {
		return fmt.Errorf("instance file: %w", err)
	}
	tmp, err := os.CreateTemp(data, ".instance-*")
	if err != nil {
		return fmt.Errorf("instance file: %w", err)
	}
	defer os.Remove(tmp.Name())
	_, werr := tmp.Write(append(b, '\n'))
	if err := errors.Join(tmp.Chmod(0o600), werr, tmp.Sync(), tmp.Close()); err != nil {
		return fmt.Errorf("instance file: write %s: %w", tmp.Name(), err)
	}
	if err := os.Rename(tmp.Name(), filepath.Join(data, instanceFileName)); err != nil {
		return fmt.Errorf("instance file: %w", err)
	}
	return nil
}

// removeInstance deletes the instance file on a clean shutdown, unless
// another instance has written its own since (then it is not ours).
func removeInstance(data string, pid int) error {
	info, err := readInstance(data)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && info.PID != pid) {
		return nil
	}
	if err := os.Remove(filepath.Join(data, instanceFileName)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("instance file: %w", err)
	}
	return nil
}

// readInstance reads the instance file of the data directory; a missing
// file is fs.ErrNotExist.
func readInstance(data string) (instanceInfo, error) {
	path := filepath.Join(data, instanceFileName)
	b, err := settingsfile.ReadRegular("instance file", path, maxInstanceFileBytes)
	if err != nil {
		return instanceInfo{}, err
	}
	var info instanceInfo
	if err := json.Unmarshal(b, &info); err != nil {
		return instanceInfo{}, fmt.Errorf("instance file %s: %w", path, err)
	}
	if info.URL == "" || info.PID <= 0 {
		return instanceInfo{}, fmt.Errorf("instance file %s: no url or pid", path)
	}
	return info, nil
}
