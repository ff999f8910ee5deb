package sqlite

import (
	"context"
	"errors"
	"io/fs"
	"testing"
)

func TestOAuthStoreKeepsSealedRecords(t *testing.T) {
	ctx := context.Background()
	st := openTestDB(t, t.TempDir()).OAuthStore()
	if _, err := st.LoadTokens(ctx, "remote"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("empty: got %v, want fs.ErrNotExist", err)
	}
	for _, b := range []string{"first", "second"} {
		if err := st.SaveTokens(ctx, "remote", []byte(b)); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := st.LoadTokens(ctx, "remote"); err != nil || string(got) != "second" {
		t.Fatalf("LoadTokens: got %q, %v", got, err)
	}
	if err := st.DeleteTokens(ctx, "remote"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.LoadTokens(ctx, "remote"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("deleted: got %v, want fs.ErrNotExist", err)
	}

	if err := st.SaveRegistration(ctx, "https://as", "http://127.0.0.1:1/cb", []byte("client")); err != nil {
		t.Fatal(err)
	}
	if _, err := st.LoadRegistration(ctx, "https://as", "http://127.0.0.1:2/cb"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("another redirect URI: got %v, want fs.ErrNotExist", err)
	}
	if got, err := st.LoadRegistration(ctx, "https://as", "http://127.0.0.1:1/cb"); err != nil || string(got) != "client" {
		t.Fatalf("LoadRegistration: got %q, %v", got, err)
	}
	if err := st.DeleteRegistration(ctx, "https://as", "http://127.0.0.1:1/cb"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.LoadRegistration(ctx, "https://as", "http://127.0.0.1:1/cb"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("deleted: got %v, want fs.ErrNotExist", err)
	}
}
