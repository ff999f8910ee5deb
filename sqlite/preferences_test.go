package sqlite_test

import (
	"context"
	"testing"

	"github.com/switchboard-mcp/switchboard/sqlite"
)

func TestPreferencesRoundTripPerUser(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	p := db.PreferenceStore()
	for _, kv := range [][3]string{{"alice", "theme", "dark"}, {"alice", "lang", "pt-BR"}, {"alice", "theme", "light"}, {"bob", "theme", "dark"}} {
		if err := p.SetPreference(ctx, kv[0], kv[1], kv[2]); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()

	db, err = sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	got, err := db.PreferenceStore().Preferences(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got["theme"] != "light" || got["lang"] != "pt-BR" {
		t.Errorf("alice's preferences %v, want theme light and lang pt-BR", got)
	}
	if none, _ := db.PreferenceStore().Preferences(ctx, "carol"); len(none) != 0 {
		t.Errorf("carol has preferences %v, want none", none)
	}
}
