package domain_test

import (
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

func TestBackoffSchedule(t *testing.T) {
	b := domain.DefaultBackoff
	want := []time.Duration{1, 2, 4, 8, 16, 30, 30, 30}
	for n, w := range want {
		if got := b.Delay(n, 0); got != w*time.Second {
			t.Errorf("Delay(%d, 0) = %v, want %v", n, got, w*time.Second)
		}
	}
}

func TestBackoffJitterBound(t *testing.T) {
	b := domain.DefaultBackoff
	for n := 0; n < 10; n++ {
		base := b.Delay(n, 0)
		for _, r := range []float64{0.25, 0.5, 0.999999} {
			got := b.Delay(n, r)
			if got < base || got > base+base/10 {
				t.Errorf("Delay(%d, %v) = %v, want within [%v, %v]", n, r, got, base, base+base/10)
			}
		}
	}
}

func TestBackoffHugeAttemptDoesNotOverflow(t *testing.T) {
	if got := domain.DefaultBackoff.Delay(1<<20, 0); got != 30*time.Second {
		t.Errorf("Delay(1<<20, 0) = %v, want 30s", got)
	}
}
