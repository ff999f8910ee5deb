package fswatch

import (
	"slices"
	"testing"
)

// A Change the consumer has not taken absorbs later bursts, so the loop
// never blocks and nothing is lost.
func TestPendingChangeAbsorbsNewPaths(t *testing.T) {
	tg, err := newTargets([]string{"/a/settings.json", "/b/settings.json", "/c/settings.json"})
	if err != nil {
		t.Fatal(err)
	}
	l := &loop{targets: tg, changes: make(chan Change, 1), pending: map[string]bool{}}

	l.pending["/c/settings.json"] = true
	l.flush()
	l.pending["/a/settings.json"] = true
	l.pending["/c/settings.json"] = true
	l.flush()

	got := <-l.changes
	if want := []string{"/a/settings.json", "/c/settings.json"}; !slices.Equal(got.Paths, want) {
		t.Fatalf("change: got %v, want %v", got.Paths, want)
	}
	if len(l.changes) != 0 || len(l.pending) != 0 {
		t.Fatalf("after one receive: %d changes and %d pending, want none", len(l.changes), len(l.pending))
	}
}

func TestTargetsDeduplicateAndShareDirectories(t *testing.T) {
	tg, err := newTargets([]string{"/x/a.json", "/x/b.json", "/x/../x/a.json", "/y/a.json"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"/x/a.json", "/x/b.json", "/y/a.json"}; !slices.Equal(tg.paths, want) {
		t.Fatalf("paths: got %v, want %v", tg.paths, want)
	}
	if want := []string{"/x", "/y"}; !slices.Equal(tg.dirs, want) {
		t.Fatalf("dirs: got %v, want %v", tg.dirs, want)
	}
}
