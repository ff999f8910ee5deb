package domain_test

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
)

// memTokens is an in-memory domain.ClientTokenStore that records touches.
type memTokens struct {
	mu      sync.Mutex // guards all fields
	tokens  []domain.ClientToken
	touches []time.Time
	failDel error
}

func (m *memTokens) ClientTokens(context.Context) ([]domain.ClientToken, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.tokens), nil
}

func (m *memTokens) InsertClientToken(_ context.Context, t domain.ClientToken) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.tokens = append(m.tokens, t)
	return nil
}

func (m *memTokens) DeleteClientToken(_ context.Context, name string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.failDel != nil {
		return m.failDel
	}
	m.tokens = slices.DeleteFunc(m.tokens, func(t domain.ClientToken) bool { return t.Name == name })
	return nil
}

func (m *memTokens) TouchClientToken(_ context.Context, name string, at time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.touches = append(m.touches, at)
	return nil
}

func newTokens(t *testing.T, store *memTokens, clock *domaintest.Clock) *domain.ClientTokens {
	t.Helper()
	c, err := domain.NewClientTokens(context.Background(), domain.ClientTokensOptions{
		Store: store, Clock: clock, Rand: bytes.NewReader(bytes.Repeat([]byte{7, 1, 9}, 100)),
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestClientTokenCreateVerifyRevoke(t *testing.T) {
	ctx := context.Background()
	store := &memTokens{}
	clock := domaintest.NewClock(time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC))
	c := newTokens(t, store, clock)

	tok, secret, err := c.Create(ctx, "claude-code")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(secret, domain.ClientTokenPrefix) || len(secret) < 40 {
		t.Errorf("secret %q: want the %s prefix and at least 40 characters", secret, domain.ClientTokenPrefix)
	}
	if tok.Hash != domain.HashClientToken(secret) || store.tokens[0].Hash != tok.Hash {
		t.Errorf("stored hash is not the secret's SHA-256")
	}
	if strings.Contains(string(store.tokens[0].Hash[:]), secret) {
		t.Errorf("the store holds the secret")
	}
	if name, ok := c.Verify(ctx, secret); !ok || name != "claude-code" {
		t.Errorf("Verify(secret): got %q, %v; want claude-code, true", name, ok)
	}
	for _, bad := range []string{"", secret[:len(secret)-1], secret + "x", strings.ToUpper(secret), "owner"} {
		if name, ok := c.Verify(ctx, bad); ok {
			t.Errorf("Verify(%q): got %q, true; want refused", bad, name)
		}
	}
	if _, _, err := c.Create(ctx, "claude-code"); !errors.Is(err, domain.ErrClientTokenExists) {
		t.Errorf("second Create: got %v, want ErrClientTokenExists", err)
	}
	if err := c.Revoke(ctx, "claude-code"); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Verify(ctx, secret); ok {
		t.Errorf("Verify after Revoke: accepted")
	}
	if len(store.tokens) != 0 {
		t.Errorf("store after Revoke: got %d tokens, want 0", len(store.tokens))
	}
	if err := c.Revoke(ctx, "claude-code"); !errors.Is(err, domain.ErrClientTokenNotFound) {
		t.Errorf("Revoke twice: got %v, want ErrClientTokenNotFound", err)
	}
}

func TestClientTokenRevokeEndsAccessEvenIfTheStoreFails(t *testing.T) {
	ctx := context.Background()
	store := &memTokens{}
	c := newTokens(t, store, domaintest.NewClock(time.Unix(0, 0)))
	_, secret, err := c.Create(ctx, "cursor")
	if err != nil {
		t.Fatal(err)
	}
	store.failDel = errors.New("disk full")
	if err := c.Revoke(ctx, "cursor"); err == nil {
		t.Errorf("Revoke: got nil, want the store's error")
	}
	if _, ok := c.Verify(ctx, secret); ok {
		t.Errorf("Verify after a failed Revoke: accepted")
	}
}

func TestClientTokenNames(t *testing.T) {
	for _, tc := range []struct {
		name string
		want bool
	}{
		{"claude-code", true},
		{"vs.code_2", true},
		{"A", true},
		{strings.Repeat("a", 64), true},
		{strings.Repeat("a", 65), false},
		{"", false},
		{"owner", false},
		{"Owner", false},
		{"-x", false},
		{"a b", false},
		{"a/b", false},
		{"é", false},
	} {
		if got := domain.ValidClientTokenName(tc.name); got != tc.want {
			t.Errorf("ValidClientTokenName(%q): got %v, want %v", tc.name, got, tc.want)
		}
	}
	c := newTokens(t, &memTokens{}, domaintest.NewClock(time.Unix(0, 0)))
	if _, _, err := c.Create(context.Background(), "owner"); !errors.Is(err, domain.ErrClientTokenName) {
		t.Errorf("Create(owner): got %v, want ErrClientTokenName", err)
	}
}

func TestClientTokenUseIsRecordedAtMostOncePerInterval(t *testing.T) {
	ctx := context.Background()
	store := &memTokens{}
	start := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	clock := domaintest.NewClock(start)
	c := newTokens(t, store, clock)
	_, secret, err := c.Create(ctx, "gemini-cli")
	if err != nil {
		t.Fatal(err)
	}
	c.Verify(ctx, secret)
	clock.Advance(30 * time.Second)
	c.Verify(ctx, secret)
	clock.Advance(31 * time.Second)
	c.Verify(ctx, secret)
	want := []time.Time{start, start.Add(61 * time.Second)}
	if !slices.EqualFunc(store.touches, want, time.Time.Equal) {
		t.Errorf("touches: got %v, want %v", store.touches, want)
	}
	list := c.List()
	if len(list) != 1 || !list[0].LastUsedAt.Equal(want[1]) || list[0].Hash != ([32]byte{}) {
		t.Errorf("List: got %+v, want one token last used %v with no hash", list, want[1])
	}
}

func TestClientTokensLoadFromTheStore(t *testing.T) {
	ctx := context.Background()
	store := &memTokens{}
	clock := domaintest.NewClock(time.Unix(0, 0))
	_, secret, err := newTokens(t, store, clock).Create(ctx, "qwen-code")
	if err != nil {
		t.Fatal(err)
	}
	again := newTokens(t, store, clock)
	if name, ok := again.Verify(ctx, secret); !ok || name != "qwen-code" {
		t.Errorf("Verify after reload: got %q, %v", name, ok)
	}
}
