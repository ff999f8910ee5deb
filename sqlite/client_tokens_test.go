package sqlite_test

import (
	"context"
	"crypto/sha256"
	"errors"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/sqlite"
)

func TestClientTokensSurviveReopen(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	s := db.ClientTokenStore()
	created := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	a := domain.ClientToken{Name: "claude-code", Hash: sha256.Sum256([]byte("a")), CreatedAt: created}
	b := domain.ClientToken{Name: "cursor", Hash: sha256.Sum256([]byte("b")), CreatedAt: created.Add(time.Second)}
	for _, tok := range []domain.ClientToken{b, a} {
		if err := s.InsertClientToken(ctx, tok); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.InsertClientToken(ctx, domain.ClientToken{Name: "cursor", Hash: sha256.Sum256([]byte("c")), CreatedAt: created}); !errors.Is(err, domain.ErrClientTokenExists) {
		t.Errorf("insert a taken name: got %v, want ErrClientTokenExists", err)
	}
	used := created.Add(time.Hour)
	if err := s.TouchClientToken(ctx, "cursor", used); err != nil {
		t.Fatal(err)
	}
	db.Close()

	db, err = sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s = db.ClientTokenStore()
	got, err := s.ClientTokens(ctx)
	if err != nil {
		t.Fatal(err)
	}
	b.LastUsedAt = used
	want := []domain.ClientToken{a, b}
	if len(got) != len(want) {
		t.Fatalf("got %d tokens, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i].Name != want[i].Name || got[i].Hash != want[i].Hash || !got[i].CreatedAt.Equal(want[i].CreatedAt) || !got[i].LastUsedAt.Equal(want[i].LastUsedAt) {
			t.Errorf("token %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
	if err := s.DeleteClientToken(ctx, "claude-code"); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteClientToken(ctx, "claude-code"); !errors.Is(err, domain.ErrClientTokenNotFound) {
		t.Errorf("delete twice: got %v, want ErrClientTokenNotFound", err)
	}
	if left, _ := s.ClientTokens(ctx); len(left) != 1 || left[0].Name != "cursor" {
		t.Errorf("after delete: got %+v, want cursor alone", left)
	}
}

// The secret itself never reaches the database: a token made through the
// domain service is stored as its hash only.
func TestClientTokenSecretIsNotStored(t *testing.T) {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	svc, err := domain.NewClientTokens(ctx, domain.ClientTokensOptions{Store: db.ClientTokenStore()})
	if err != nil {
		t.Fatal(err)
	}
	_, secret, err := svc.Create(ctx, "vscode")
	if err != nil {
		t.Fatal(err)
	}
	stored, err := db.ClientTokenStore().ClientTokens(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(stored) != 1 || stored[0].Hash != domain.HashClientToken(secret) {
		t.Fatalf("stored %+v, want the secret's hash", stored)
	}
	again, err := domain.NewClientTokens(ctx, domain.ClientTokensOptions{Store: db.ClientTokenStore()})
	if err != nil {
		t.Fatal(err)
	}
	if name, ok := again.Verify(ctx, secret); !ok || name != "vscode" {
		t.Errorf("Verify after reload: got %q, %v", name, ok)
	}
}
