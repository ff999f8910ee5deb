package mcpserver

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// StateKeySize is the length of the key that seals requestState: 32 bytes
// make AES-256.
const StateKeySize = 32

// requestState is what a 2026-07-28 client carries from an input_required
// result to its retry. It passes through the client, so it is sealed: the
// client can neither read nor change it, and it names everything the retry
// must match, so it resumes only the call it was issued for, for the
// client it was issued to, once.
type requestState struct {
	Held    string `json:"h"`           // the held call
	Round   int    `json:"r"`           // the round it answers
	Token   string `json:"t,omitempty"` // the client token's name
	Session string `json:"s,omitempty"` // the legacy session, when there is one
	Expires int64  `json:"e"`           // Unix milliseconds
}

// Why a requestState is refused; the tool error the client reads says
// which, never more.
var (
	errStateSeal    = errors.New("the requestState was not issued by this Switchboard endpoint, or was changed on the way")
	errStateExpired = errors.New("the requestState has expired")
)

// sealer seals and opens request states with AES-256-GCM. The endpoint's
// path is the additional data, so a state issued on /mcp/a is refused on
// /mcp and the other way round.
type sealer struct {
	aead cipher.AEAD
	aad  []byte
}

// newSealer returns a sealer with key, or with a fresh random key when key
// is empty (states then last as long as the process, like the calls they
// resume).
func newSealer(key []byte, endpoint string) (*sealer, error) {
	if len(key) == 0 {
		key = make([]byte, StateKeySize)
		if _, err := rand.Read(key); err != nil {
			return nil, fmt.Errorf("state key: %w", err)
		}
	}
	if len(key) != StateKeySize {
		return nil, fmt.Errorf("state key: %d bytes, want %d", len(key), StateKeySize)
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("state key: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("state key: %w", err)
	}
	return &sealer{aead: aead, aad: []byte("switchboard requestState " + endpoint)}, nil
}

// seal returns st as the opaque text a client echoes back: a random nonce
// and the ciphertext, base64url.
func (s *sealer) seal(st requestState) (string, error) {
	plain, err := json.Marshal(st)
	if err != nil {
		return "", fmt.Errorf("seal state: %w", err)
	}
	nonce := make([]byte, s.aead.NonceSize(), s.aead.NonceSize()+len(plain)+s.aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return "", fmt.Errorf("seal state: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(s.aead.Seal(nonce, nonce, plain, s.aad)), nil
}

// open returns the state text sealed, or errStateSeal when it is not one
// this sealer made, or errStateExpired when it has passed its expiry.
func (s *sealer) open(text string, now time.Time) (requestState, error) {
	raw, err := base64.RawURLEncoding.DecodeString(text)
	if err != nil || len(raw) < s.aead.NonceSize() {
		return requestState{}, errStateSeal
	}
	n := s.aead.NonceSize()
	plain, err := s.aead.Open(nil, raw[:n], raw[n:], s.aad)
	if err != nil {
		return requestState{}, errStateSeal
	}
	var st requestState
	if err := json.Unmarshal(plain, &st); err != nil || st.Held == "" {
		return requestState{}, errStateSeal
	}
	if now.UnixMilli() > st.Expires {
		return requestState{}, errStateExpired
	}
	return st, nil
}
