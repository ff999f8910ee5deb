package oauth

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"fmt"
)

// KeySize is the length of the data key that seals stored tokens: AES-256.
const KeySize = 32

// Sealer encrypts records with AES-256-GCM. The associated data binds
// each ciphertext to the row it belongs to, so a sealed token cannot be
// moved to another server's row and opened there.
type Sealer struct {
	aead cipher.AEAD
}

// NewSealer returns a Sealer using key, which must be KeySize bytes.
func NewSealer(key []byte) (*Sealer, error) {
	if len(key) != KeySize {
		return nil, fmt.Errorf("seal key: got %d bytes, want %d", len(key), KeySize)
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("seal key: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("seal key: %w", err)
	}
	return &Sealer{aead: aead}, nil
}

// Seal returns a random nonce followed by the ciphertext of plain.
func (s *Sealer) Seal(plain, aad []byte) ([]byte, error) {
	nonce := make([]byte, s.aead.NonceSize(), s.aead.NonceSize()+len(plain)+s.aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return nil, fmt.Errorf("seal: %w", err)
	}
	return s.aead.Seal(nonce, nonce, plain, aad), nil
}

// Open reverses Seal; it fails with ErrUnsealable when sealed was made with
// another key or other associated data, or was altered.
func (s *Sealer) Open(sealed, aad []byte) ([]byte, error) {
	n := s.aead.NonceSize()
	if len(sealed) < n+s.aead.Overhead() {
		return nil, ErrUnsealable
	}
	plain, err := s.aead.Open(nil, sealed[:n], sealed[n:], aad)
	if err != nil {
		return nil, ErrUnsealable
	}
	return plain, nil
}
