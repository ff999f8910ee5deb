package main

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/switchboard-mcp/switchboard/handlers"
	"github.com/switchboard-mcp/switchboard/settingsfile"
)

// tokenFileName is the access token's file inside the data directory,
// where `switchboard status` and `switchboard token` find it by themselves.
const tokenFileName = "token"

// maxTokenFileBytes bounds what is read from a token file: a token is a
// few dozen characters, and a hostile path must not make us read a disk.
const maxTokenFileBytes = 4096

// tokenSource says where the access token comes from: a host app's own
// (SWITCHBOARD_TOKEN, --token-file), else the data directory's.
type tokenSource struct {
	value string // SWITCHBOARD_TOKEN
	file  string // --token-file
	data  string // the data directory
}

// load returns the token, creating one in the data directory on first use.
func (s tokenSource) load() (string, error) {
	switch {
	case s.value != "":
		return checkToken(s.value, "SWITCHBOARD_TOKEN")
	case s.file != "":
		return readTokenFile(s.file)
	}
	return ensureToken(s.data)
}

// ensureToken reads the data directory's token, or writes a new random one
// (256 bits) there with mode 0600 in a 0700 directory.
func ensureToken(data string) (string, error) {
	path := filepath.Join(data, tokenFileName)
	tok, err := readOwnTokenFile(path)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return tok, err
	}
	if err := os.MkdirAll(data, 0o700); err != nil {
		return "", fmt.Errorf("access token: %w", err)
	}
	tok = newToken()
	// Write a private temporary file, then link it into place: the link
	// fails if another process got there first, and nobody ever reads a
	// half-written token.
	tmp, err := os.CreateTemp(data, ".token-*")
	if err != nil {
		return "", fmt.Errorf("access token: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return "", fmt.Errorf("access token: %w", err)
	}
	_, werr := tmp.WriteString(tok + "\n")
	if err := errors.Join(werr, tmp.Sync(), tmp.Close()); err != nil {
		return "", fmt.Errorf("access token: write %s: %w", tmp.Name(), err)
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return readOwnTokenFile(path)
		}
		return "", fmt.Errorf("access token: %w", err)
	}
	return tok, nil
}

// rotateToken replaces the data directory's token with a new random one,
// atomically: a reader sees the old token or the new, never half of one.
func rotateToken(data string) (string, error) {
	if err := os.MkdirAll(data, 0o700); err != nil {
		return "", fmt.Errorf("access token: %w", err)
	}
	tok := newToken()
	tmp, err := os.CreateTemp(data, ".token-*")
	if err != nil {
		return "", fmt.Errorf("access token: %w", err)
	}
	defer os.Remove(tmp.Name())
	_, werr := tmp.WriteString(tok + "\n")
	if err := errors.Join(tmp.Chmod(0o600), werr, tmp.Sync(), tmp.Close()); err != nil {
		return "", fmt.Errorf("access token: write %s: %w", tmp.Name(), err)
	}
	if err := os.Rename(tmp.Name(), filepath.Join(data, tokenFileName)); err != nil {
		return "", fmt.Errorf("access token: %w", err)
	}
	return tok, nil
}

// newToken returns 32 random bytes, URL-safe, so it fits a query string.
func newToken() string {
	b := make([]byte, 32)
	rand.Read(b) // never fails: crypto/rand panics rather than return weak bytes
	return base64.RawURLEncoding.EncodeToString(b)
}

// readTokenFile reads a token file: a regular file of at most a few KiB,
// opened so that a named pipe can never block start-up.
func readTokenFile(path string) (string, error) {
	b, err := settingsfile.ReadRegular("token file", path, maxTokenFileBytes)
	if err != nil {
		return "", fmt.Errorf("access token: %w", err)
	}
	return checkToken(strings.TrimSpace(string(b)), path)
}

// readOwnTokenFile reads the data directory's token file, first making it
// private (0600) if it is not: anyone who can read it can drive
// Switchboard. A host app's --token-file is the host's to protect.
func readOwnTokenFile(path string) (string, error) {
	if fi, err := os.Lstat(path); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o077 != 0 {
		if err := os.Chmod(path, 0o600); err != nil {
			return "", fmt.Errorf("access token: make %s private: %w", path, err)
		}
	}
	return readTokenFile(path)
}

// looseTokenFile reports whether users other than the owner may read the
// token file at path, which start-up warns about.
func looseTokenFile(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().Perm()&0o077 != 0
}

// checkToken refuses tokens too short to resist guessing, and characters
// that cannot travel in a header, a cookie or a URL unchanged.
func checkToken(tok, from string) (string, error) {
	if len(tok) < handlers.MinTokenLength {
		return "", fmt.Errorf("access token from %s: it must be at least %d characters", from, handlers.MinTokenLength)
	}
	for _, r := range tok {
		if !tokenChar(r) {
			return "", fmt.Errorf("access token from %s: use letters, digits, '-', '_', '.' and '~' only", from)
		}
	}
	return tok, nil
}

// tokenChar reports whether r is one of URL's unreserved characters.
func tokenChar(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_.~", r)
}
