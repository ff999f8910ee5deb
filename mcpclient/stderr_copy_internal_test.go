package mcpclient

import (
	"os"
	"slices"
	"testing"
)

// lineWrites passes on each Write as one string.
type lineWrites chan string

func (w lineWrites) Write(b []byte) (int, error) {
	w <- string(b)
	return len(b), nil
}

// TestCopyLinesAcrossQuietSpells checks that stderr is copied one line per
// Write whether lines come in one burst or with quiet spells between them
// (when the copy holds no buffer), and that an unterminated last line is
// ended.
func TestCopyLinesAcrossQuietSpells(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	dst := make(lineWrites, 16)
	done := make(chan struct{})
	go copyLines(dst, r, done)
	var got []string
	// Each step waits for its lines, so that the next write starts a new
	// burst.
	for _, step := range []struct {
		text  string
		lines int
	}{{"one\ntwo\n", 2}, {"three\n", 1}, {"fo", 0}, {"ur\n", 1}} {
		if _, err := w.WriteString(step.text); err != nil {
			t.Fatal(err)
		}
		for range step.lines {
			got = append(got, <-dst)
		}
	}
	if _, err := w.WriteString("last"); err != nil {
		t.Fatal(err)
	}
	_ = w.Close()
	<-done
	close(dst)
	for s := range dst {
		got = append(got, s)
	}
	want := []string{"one\n", "two\n", "three\n", "four\n", "last", "\n"}
	if !slices.Equal(got, want) {
		t.Errorf("writes = %q, want %q", got, want)
	}
}
