package oauth_test

import (
	"bytes"
	"encoding/base64"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/oauth"
)

func TestSealBindsToTheRow(t *testing.T) {
	s, err := oauth.NewSealer(bytes.Repeat([]byte{7}, oauth.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	sealed, err := s.Seal([]byte("refresh-me"), []byte("row-a"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(sealed, []byte("refresh-me")) {
		t.Fatal("sealed bytes hold the plaintext")
	}
	if got, err := s.Open(sealed, []byte("row-a")); err != nil || string(got) != "refresh-me" {
		t.Fatalf("Open: got %q, %v", got, err)
	}
	if _, err := s.Open(sealed, []byte("row-b")); !errors.Is(err, oauth.ErrUnsealable) {
		t.Fatalf("Open in another row: got %v, want ErrUnsealable", err)
	}
	other, _ := oauth.NewSealer(bytes.Repeat([]byte{8}, oauth.KeySize))
	if _, err := other.Open(sealed, []byte("row-a")); !errors.Is(err, oauth.ErrUnsealable) {
		t.Fatalf("Open with another key: got %v, want ErrUnsealable", err)
	}
	if _, err := oauth.NewSealer([]byte("short")); err == nil {
		t.Fatal("a short key was accepted")
	}
}

func TestLoadKeyFromKeyFileCreatesItPrivately(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "key")
	key, source, err := oauth.LoadKey(oauth.KeyOptions{File: path, Keychain: fakeKeychain{}, DataDir: t.TempDir()})
	if err != nil || source != domain.KeySourceFile || len(key) != oauth.KeySize {
		t.Fatalf("LoadKey: got %d bytes from %q, %v", len(key), source, err)
	}
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v, mode %v, want 0600", err, info.Mode().Perm())
	}
	again, _, err := oauth.LoadKey(oauth.KeyOptions{File: path})
	if err != nil || !bytes.Equal(again, key) {
		t.Fatalf("second load: got a different key (%v)", err)
	}
}

func TestLoadKeyRefusesAKeyFileOthersCanRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "key")
	if err := os.WriteFile(path, []byte(base64.StdEncoding.EncodeToString(make([]byte, oauth.KeySize))), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := oauth.LoadKey(oauth.KeyOptions{File: path}); err == nil {
		t.Fatal("a world-readable key file was accepted")
	}
}

func TestLoadKeyFromKeychain(t *testing.T) {
	kc := &memKeychain{}
	key, source, err := oauth.LoadKey(oauth.KeyOptions{Keychain: kc, DataDir: t.TempDir()})
	if err != nil || source != domain.KeySourceKeychain {
		t.Fatalf("LoadKey: got %q, %v", source, err)
	}
	again, _, _ := oauth.LoadKey(oauth.KeyOptions{Keychain: kc, DataDir: t.TempDir()})
	if !bytes.Equal(key, again) {
		t.Fatal("the keychain's key changed between loads")
	}
}

func TestLoadKeyFallsBackToTheDataDir(t *testing.T) {
	dir := t.TempDir()
	for name, kc := range map[string]oauth.Keychain{
		"no keychain":     nil,
		"failing":         fakeKeychain{err: errors.New("no secret service")},
		"never answering": fakeKeychain{hang: true},
	} {
		key, source, err := oauth.LoadKey(oauth.KeyOptions{Keychain: kc, KeychainTimeout: 50 * time.Millisecond, DataDir: dir})
		if err != nil || source != domain.KeySourceDataDir || len(key) != oauth.KeySize {
			t.Fatalf("%s: got %q, %v", name, source, err)
		}
	}
	if info, err := os.Stat(filepath.Join(dir, oauth.KeyFileName)); err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("data dir key: %v", err)
	}
}

type fakeKeychain struct {
	err  error
	hang bool
}

func (f fakeKeychain) Get(string, string) (string, bool, error) {
	if f.hang {
		select {}
	}
	return "", false, f.err
}

func (f fakeKeychain) Set(string, string, string) error { return f.err }

type memKeychain struct{ secret string }

func (m *memKeychain) Get(string, string) (string, bool, error) { return m.secret, m.secret != "", nil }

func (m *memKeychain) Set(_, _, s string) error {
	m.secret = s
	return nil
}

// A key made in the data directory while the keychain did not answer keeps
// being used once it answers again, so tokens sealed meanwhile still open.
func TestLoadKeyKeepsTheDataDirKeyOnceMade(t *testing.T) {
	dir := t.TempDir()
	first, source, err := oauth.LoadKey(oauth.KeyOptions{Keychain: fakeKeychain{err: errors.New("locked")}, DataDir: dir})
	if err != nil || source != domain.KeySourceDataDir {
		t.Fatalf("first load: got %q, %v", source, err)
	}
	again, source, err := oauth.LoadKey(oauth.KeyOptions{Keychain: &memKeychain{}, DataDir: dir})
	if err != nil || source != domain.KeySourceDataDir || !bytes.Equal(first, again) {
		t.Fatalf("second load: got %q, %v, same key %v; want the data dir's key", source, err, bytes.Equal(first, again))
	}
}
