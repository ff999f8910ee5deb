package domain_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
)

func TestLineRing(t *testing.T) {
	r := domain.NewLineRing(3)
	fmt.Fprint(r, "one\ntwo\r\nthr")
	if got, want := r.Lines(), []string{"one", "two"}; !slices.Equal(got, want) {
		t.Fatalf("Lines() = %q, want %q", got, want)
	}
	mark := r.Seq()
	fmt.Fprint(r, "ee\nfour\nfive\n")
	if got, want := r.Lines(), []string{"three", "four", "five"}; !slices.Equal(got, want) {
		t.Errorf("Lines() = %q, want %q", got, want)
	}
	if got, want := r.Since(mark, 2), []string{"four", "five"}; !slices.Equal(got, want) {
		t.Errorf("Since(mark, 2) = %q, want %q", got, want)
	}
	if got := r.Since(r.Seq(), 5); len(got) != 0 {
		t.Errorf("Since(now) = %q, want none", got)
	}
}

// TestLineRingGrowsToItsLimit checks a ring that starts empty keeps the
// newest lines in order while it grows and after it wraps.
func TestLineRingGrowsToItsLimit(t *testing.T) {
	r := domain.NewLineRing(20)
	if got := r.Lines(); len(got) != 0 {
		t.Fatalf("new ring Lines() = %q, want none", got)
	}
	var want []string
	for i := range 45 {
		line := fmt.Sprint("line ", i)
		fmt.Fprintln(r, line)
		want = append(want, line)
		if len(want) > 20 {
			want = want[1:]
		}
		if got := r.Lines(); !slices.Equal(got, want) {
			t.Fatalf("after %d lines Lines() = %q, want %q", i+1, got, want)
		}
	}
	if got, want := r.Since(r.Seq()-3, 10), want[len(want)-3:]; !slices.Equal(got, want) {
		t.Errorf("Since(seq-3, 10) = %q, want %q", got, want)
	}
}
