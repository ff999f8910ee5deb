package main

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/switchboard-mcp/switchboard/handlers"
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
	tok, err := readTokenFile(path)
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
			return readTokenFile(path)
		}
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

// readTokenFile reads a token file: a regular file of at most a few KiB.
// A group- or world-readable file is tightened to 0600, since anyone who
// can read it can drive Switchboard.
func readTokenFile(path string) (string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("access token: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("access token: %s is not a regular file", path)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		if err := os.Chmod(path, 0o600); err != nil {
			return "", fmt.Errorf("access token: tighten %s: %w", path, err)
		}
	}
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("access token: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxTokenFileBytes+1))
	if err != nil {
		return "", fmt.Errorf("access token: read %s: %w", path, err)
	}
	if len(b) > maxTokenFileBytes {
		return "", fmt.Errorf("access token: %s is larger than %d bytes", path, maxTokenFileBytes)
	}
	return checkToken(strings.TrimSpace(string(b)), path)
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
