package domain

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
)

// ClientToken is a named credential an AI client uses to reach the MCP
// endpoints, and nothing else: a person can give each client its own and
// revoke one without touching the others or the owner's access token.
// Only the SHA-256 of the secret is kept, so a copy of the database opens
// nothing.
type ClientToken struct {
	Name       string
	Hash       [sha256.Size]byte
	CreatedAt  time.Time
	LastUsedAt time.Time // zero when the token was never used
}

// ClientTokenStore keeps client tokens across restarts.
type ClientTokenStore interface {
	// ClientTokens returns every token, oldest first.
	ClientTokens(ctx context.Context) ([]ClientToken, error)
	// InsertClientToken adds t; a name already taken is ErrClientTokenExists.
	InsertClientToken(ctx context.Context, t ClientToken) error
	// DeleteClientToken removes the token called name; none is
	// ErrClientTokenNotFound.
	DeleteClientToken(ctx context.Context, name string) error
	// TouchClientToken records that the token called name was used at at.
	TouchClientToken(ctx context.Context, name string, at time.Time) error
}

// OwnerTokenName is the name the owner's access token goes by wherever a
// client token's name is shown, so it can never be taken by a client token.
const OwnerTokenName = "owner"

// ClientTokenPrefix starts every client token's secret, so one found in a
// file or a log is recognisable as Switchboard's and as a client token.
const ClientTokenPrefix = "sbc_"

var clientTokenName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// ValidClientTokenName reports whether name may name a client token.
func ValidClientTokenName(name string) bool {
	return clientTokenName.MatchString(name) && !strings.EqualFold(name, OwnerTokenName)
}

// DefaultTouchEvery is how stale a token's last-used time may get: a use is
// written at most this often, so a busy client does not write to disk on
// every request.
const DefaultTouchEvery = time.Minute

// ClientTokensOptions configures NewClientTokens.
type ClientTokensOptions struct {
	Store ClientTokenStore // required
	Clock Clock            // nil means SystemClock
	Rand  io.Reader        // source of secrets; nil means crypto/rand
	Log   *slog.Logger     // nil discards
	// TouchEvery is how often a token's last use is written; 0 means
	// DefaultTouchEvery.
	TouchEvery time.Duration
}

// ClientTokens creates, lists, revokes and verifies client tokens. It keeps
// every token in memory, so verifying costs no disk read and a revocation
// takes effect for the very next request.
type ClientTokens struct {
	opts ClientTokensOptions

	mu     sync.Mutex // guards tokens and the store writes that change it
	tokens []ClientToken
}

// NewClientTokens loads the stored tokens.
func NewClientTokens(ctx context.Context, opts ClientTokensOptions) (*ClientTokens, error) {
	if opts.Store == nil {
		panic("domain: ClientTokensOptions.Store is nil")
	}
	if opts.Clock == nil {
		opts.Clock = SystemClock{}
	}
	if opts.Rand == nil {
		opts.Rand = rand.Reader
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	if opts.TouchEvery <= 0 {
		opts.TouchEvery = DefaultTouchEvery
	}
	tokens, err := opts.Store.ClientTokens(ctx)
	if err != nil {
		return nil, fmt.Errorf("load client tokens: %w", err)
	}
	return &ClientTokens{opts: opts, tokens: tokens}, nil
}

// HashClientToken is what is stored of a secret.
func HashClientToken(secret string) [sha256.Size]byte {
	return sha256.Sum256([]byte(secret))
}

// Create makes a token called name and returns it with its secret, which
// exists nowhere else afterwards: it is shown once and never again.
func (c *ClientTokens) Create(ctx context.Context, name string) (ClientToken, string, error) {
	if !ValidClientTokenName(name) {
		return ClientToken{}, "", fmt.Errorf("create client token %q: %w", name, ErrClientTokenName)
	}
	raw := make([]byte, 32)
	if _, err := io.ReadFull(c.opts.Rand, raw); err != nil {
		return ClientToken{}, "", fmt.Errorf("create client token %q: %w", name, err)
	}
	secret := ClientTokenPrefix + base64.RawURLEncoding.EncodeToString(raw)
	t := ClientToken{Name: name, Hash: HashClientToken(secret), CreatedAt: c.opts.Clock.Now().UTC().Truncate(time.Millisecond)}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.index(name) >= 0 {
		return ClientToken{}, "", fmt.Errorf("create client token %q: %w", name, ErrClientTokenExists)
	}
	if err := c.opts.Store.InsertClientToken(ctx, t); err != nil {
		return ClientToken{}, "", fmt.Errorf("create client token %q: %w", name, err)
	}
	c.tokens = append(c.tokens, t)
	return t, secret, nil
}

// Revoke deletes the token called name; the next request carrying it is
// refused.
func (c *ClientTokens) Revoke(ctx context.Context, name string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	i := c.index(name)
	if i < 0 {
		return fmt.Errorf("revoke client token %q: %w", name, ErrClientTokenNotFound)
	}
	// Forget it first: even if the store fails, this process stops
	// accepting it now.
	c.tokens = slices.Delete(c.tokens, i, i+1)
	if err := c.opts.Store.DeleteClientToken(ctx, name); err != nil && !errors.Is(err, ErrClientTokenNotFound) {
		return fmt.Errorf("revoke client token %q: %w", name, err)
	}
	return nil
}

// List returns every token, oldest first, with the hashes cleared: nobody
// outside needs them.
func (c *ClientTokens) List() []ClientToken {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := slices.Clone(c.tokens)
	for i := range out {
		out[i].Hash = [sha256.Size]byte{}
	}
	return out
}

// Verify returns the name of the token whose secret is secret. Every stored
// hash is compared in constant time, so timing tells nothing about which
// token, or how much of one, a guess matched. A use is recorded at most
// once per TouchEvery.
func (c *ClientTokens) Verify(ctx context.Context, secret string) (string, bool) {
	if !strings.HasPrefix(secret, ClientTokenPrefix) {
		return "", false
	}
	h := HashClientToken(secret)
	c.mu.Lock()
	found := -1
	for i := range c.tokens {
		if subtle.ConstantTimeCompare(h[:], c.tokens[i].Hash[:]) == 1 {
			found = i
		}
	}
	if found < 0 {
		c.mu.Unlock()
		return "", false
	}
	t := &c.tokens[found]
	name, now := t.Name, c.opts.Clock.Now().UTC().Truncate(time.Millisecond)
	touch := now.Sub(t.LastUsedAt) >= c.opts.TouchEvery
	if touch {
		t.LastUsedAt = now
	}
	c.mu.Unlock()
	if touch {
		if err := c.opts.Store.TouchClientToken(context.WithoutCancel(ctx), name, now); err != nil {
			c.opts.Log.Warn("record a client token's use", "token_name", name, "error", err)
		}
	}
	return name, true
}

// index returns the position of the token called name, or -1. Callers hold mu.
func (c *ClientTokens) index(name string) int {
	return slices.IndexFunc(c.tokens, func(t ClientToken) bool { return t.Name == name })
}
