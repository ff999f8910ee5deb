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
