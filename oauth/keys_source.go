package oauth

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// KeyFileName is the key file kept in the data directory when neither a
// key file nor a keychain gives the key.
const KeyFileName = "oauth.key"

// Keychain is the operating system's secret store, as far as the key
// needs it. Get reports found=false, with no error, for an item that is
// not there yet.
type Keychain interface {
	Get(service, account string) (secret string, found bool, err error)
	Set(service, account, secret string) error
}

// Names of the keychain item that holds the key.
const (
	KeychainService = "switchboard"
	KeychainAccount = "oauth-data-key"
)

// KeyOptions says where the key sealing stored sign-ins may come from, in
// order: File, Keychain, a file in DataDir.
type KeyOptions struct {
	// File is --key-file or SWITCHBOARD_KEY_FILE; created when missing.
	File string
	// Keychain, when set, is asked next; nil skips it (tests, CI,
	// SWITCHBOARD_KEYCHAIN=off).
	Keychain Keychain
	// KeychainTimeout bounds each keychain call: a keychain that does not
	// answer quickly (no Secret Service on the session bus) is skipped.
	// Default 3 s.
	KeychainTimeout time.Duration
	// DataDir holds KeyFileName when nothing else gives a key.
	DataDir string
}

// LoadKey returns the data key and where it came from
// (domain.KeySourceFile, KeySourceKeychain or KeySourceDataDir), creating
// a new random key where none exists yet. It never falls back to
// plaintext: with no usable place for a key it fails.
func LoadKey(o KeyOptions) ([]byte, string, error) {
	if o.File != "" {
		key, err := keyFromFile(o.File)
		if err != nil {
			return nil, "", err
		}
		return key, domain.KeySourceFile, nil
	}
	// A key already in the data directory wins over the keychain: it was
	// made when the keychain did not answer, and tokens sealed since need
	// it, so a keychain that answers again later must not sign everyone out.
	dataKey := ""
	if o.DataDir != "" {
		dataKey = filepath.Join(o.DataDir, KeyFileName)
		if _, err := os.Lstat(dataKey); err == nil {
			key, err := keyFromFile(dataKey)
			if err != nil {
				return nil, "", err
			}
			return key, domain.KeySourceDataDir, nil
		}
	}
	if o.Keychain != nil {
		if key, err := keyFromKeychain(o.Keychain, o.KeychainTimeout); err == nil {
			return key, domain.KeySourceKeychain, nil
		}
	}
	if dataKey == "" {
		return nil, "", errors.New("oauth key: no key file, keychain or data directory")
	}
	key, err := keyFromFile(dataKey)
	if err != nil {
		return nil, "", err
	}
	return key, domain.KeySourceDataDir, nil
}

// keyFromFile reads the key at path, or creates it (mode 0600, never
// overwriting) when there is none. Like ssh, it refuses a key file that
// others can read.
func keyFromFile(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return createKeyFile(path)
	}
	if err != nil {
		return nil, fmt.Errorf("oauth key file: %w", err)
	}
	if err := checkPrivate(path); err != nil {
		return nil, err
	}
	key, err := decodeKey(data)
	if err != nil {
		return nil, fmt.Errorf("oauth key file %s: %w", path, err)
	}
	return key, nil
}

func createKeyFile(path string) ([]byte, error) {
	key := make([]byte, KeySize)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("oauth key: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("oauth key file: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return keyFromFile(path) // another process made it first
	}
	if err != nil {
		return nil, fmt.Errorf("oauth key file: %w", err)
	}
	_, err = f.WriteString(base64.StdEncoding.EncodeToString(key) + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("oauth key file: %w", err)
	}
	return key, nil
}

// checkPrivate refuses a key file readable by its group or by others.
func checkPrivate(path string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	info, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("oauth key file: %w", err)
	}
	if info.Mode().Perm()&0o077 != 0 {
		return fmt.Errorf("oauth key file %s: others may read it (mode %o); chmod 600 it", path, info.Mode().Perm())
	}
	return nil
}

// decodeKey accepts the key as base64 (what Switchboard writes) or hex.
func decodeKey(data []byte) ([]byte, error) {
	text := string(bytes.TrimSpace(data))
	if key, err := base64.StdEncoding.DecodeString(text); err == nil && len(key) == KeySize {
		return key, nil
	}
	if key, err := hex.DecodeString(text); err == nil && len(key) == KeySize {
		return key, nil
	}
	return nil, fmt.Errorf("want %d bytes in base64 or hex", KeySize)
}

// keyFromKeychain reads the key from the keychain, storing a new one when
// there is none, each call bounded by timeout.
func keyFromKeychain(kc Keychain, timeout time.Duration) ([]byte, error) {
	if timeout <= 0 {
		timeout = 3 * time.Second
	}
	type got struct {
		secret string
		found  bool
		err    error
	}
	// A keychain that never answers keeps this goroutine (and the one of
	// Set below) for the life of the process: the keychain API cannot be
	// cancelled, and it happens once, at start-up.
	ch := make(chan got, 1)
	go func() {
		s, found, err := kc.Get(KeychainService, KeychainAccount)
		ch <- got{s, found, err}
	}()
	var g got
	select {
	case g = <-ch:
	case <-time.After(timeout):
		return nil, errors.New("oauth key: the keychain did not answer")
	}
	if g.err != nil {
		return nil, fmt.Errorf("oauth key: keychain: %w", g.err)
	}
	if g.found {
		return decodeKey([]byte(g.secret))
	}
	key := make([]byte, KeySize)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("oauth key: %w", err)
	}
	set := make(chan error, 1)
	go func() { set <- kc.Set(KeychainService, KeychainAccount, base64.StdEncoding.EncodeToString(key)) }()
	select {
	case err := <-set:
		if err != nil {
			return nil, fmt.Errorf("oauth key: keychain: %w", err)
		}
	case <-time.After(timeout):
		return nil, errors.New("oauth key: the keychain did not answer")
	}
	return key, nil
}
