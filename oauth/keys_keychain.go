package oauth

import (
	"errors"

	"github.com/zalando/go-keyring"
)

// SystemKeychain is the operating system's keychain through go-keyring:
// the macOS Keychain, the Secret Service over D-Bus, or the Windows
// Credential Manager.
type SystemKeychain struct{}

var _ Keychain = SystemKeychain{}

// Get reads an item; a missing one is found=false.
func (SystemKeychain) Get(service, account string) (string, bool, error) {
	s, err := keyring.Get(service, account)
	if errors.Is(err, keyring.ErrNotFound) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	return s, true, nil
}

// Set writes an item.
func (SystemKeychain) Set(service, account, secret string) error {
	return keyring.Set(service, account, secret)
}
