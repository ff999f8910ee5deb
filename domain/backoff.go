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

// AtCeiling reports whether retry number n waits the longest the schedule
// allows, Max: from there an outage retries at a steady pace.
func (b Backoff) AtCeiling(n int) bool {
	return b.Max > 0 && b.Delay(n, 0) >= b.Max
}

// AutoDisable stops crash loops: Threshold failures within Window that
// say the server itself is broken (a process exiting, a server that
// answers and fails) disable it until a person enables it again. Failures
// of the path to a server never count (pathFailure): an outage retries at
// the backoff's ceiling for as long as it lasts.
type AutoDisable struct {
	Threshold int
	Window    time.Duration
}

// DefaultAutoDisable is five failures of the server itself within ten
// minutes: a crash loop stops, while a server that fails now and then
// keeps being retried.
var DefaultAutoDisable = AutoDisable{Threshold: 5, Window: 10 * time.Minute}

// pathFailure reports whether a failure of this category is one of the
// path to a server rather than of the server: nothing answered, or not in
// time, or the name or the TLS handshake failed. Such failures never
// count toward auto-disable.
func (c ErrorCategory) pathFailure() bool {
	switch c {
	case CategoryRefused, CategoryTimeout, CategoryDNS, CategoryTLS:
		return true
	}
	return false
}
