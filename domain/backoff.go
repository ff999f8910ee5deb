package domain

import "time"

// Backoff is the retry schedule: Initial doubling up to Max, each delay
// stretched by up to Jitter of itself so that many servers failing together
// do not retry in lockstep.
type Backoff struct {
	Initial time.Duration
	Max     time.Duration
	Jitter  float64 // fraction, 0.1 = up to 10% longer
}

// DefaultBackoff gives 1 s, 2 s, 4 s, 8 s, 16 s, then 30 s, plus up to 10%.
var DefaultBackoff = Backoff{Initial: time.Second, Max: 30 * time.Second, Jitter: 0.1}

// Delay returns the wait before retry number n (0 for the first retry);
// r is a random number in [0, 1).
func (b Backoff) Delay(n int, r float64) time.Duration {
	d := b.Initial
	for i := 0; i < n && d < b.Max; i++ {
		d *= 2
	}
	if d > b.Max {
		d = b.Max
	}
	return d + time.Duration(float64(d)*b.Jitter*r)
}

// AutoDisable stops zombie retry loops: Threshold consecutive failures
// within Window disable the server until a person enables it again.
type AutoDisable struct {
	Threshold int
	Window    time.Duration
}

// DefaultAutoDisable is seed 000 R4.2: five failures within ten minutes.
var DefaultAutoDisable = AutoDisable{Threshold: 5, Window: 10 * time.Minute}
