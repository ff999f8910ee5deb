package domaintest

import (
	"sort"
	"sync"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// Clock is a fake domain.Clock. Time stands still until Advance.
type Clock struct {
	mu     sync.Mutex // guards now and timers
	now    time.Time
	timers []*timer
	armed  chan struct{} // signalled whenever a timer is created
}

var _ domain.Clock = (*Clock)(nil)

// NewClock returns a clock reading start.
func NewClock(start time.Time) *Clock {
	return &Clock{now: start, armed: make(chan struct{}, 1)}
}

func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *Clock) NewTimer(d time.Duration) domain.Timer {
	c.mu.Lock()
	t := &timer{clock: c, at: c.now.Add(d), d: d, ch: make(chan time.Time, 1)}
	c.timers = append(c.timers, t)
	c.mu.Unlock()
	select {
	case c.armed <- struct{}{}:
	default:
	}
	return t
}

// Advance moves time forward by d and fires every timer that falls due,
// earliest first.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	var due, rest []*timer
	for _, t := range c.timers {
		if !t.at.After(c.now) {
			due = append(due, t)
		} else {
			rest = append(rest, t)
		}
	}
	c.timers = rest
	now := c.now
	c.mu.Unlock()
	sort.Slice(due, func(i, j int) bool { return due[i].at.Before(due[j].at) })
	for _, t := range due {
		t.ch <- now
	}
}

// Timers returns the durations the active timers were created with, in
// creation order.
func (c *Clock) Timers() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]time.Duration, len(c.timers))
	for i, t := range c.timers {
		out[i] = t.d
	}
	return out
}

// WaitForTimer blocks until a timer with exactly duration d is active, or
// fails after a generous real-time bound meant only to stop a broken test.
func (c *Clock) WaitForTimer(t TB, d time.Duration) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		for _, got := range c.Timers() {
			if got == d {
				return
			}
		}
		select {
		case <-c.armed:
		case <-deadline:
			t.Fatalf("no timer of %v was armed; active timers: %v", d, c.Timers())
		}
	}
}

type timer struct {
	clock *Clock
	at    time.Time
	d     time.Duration
	ch    chan time.Time
}

func (t *timer) C() <-chan time.Time { return t.ch }

func (t *timer) Stop() bool {
	c := t.clock
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, x := range c.timers {
		if x == t {
			c.timers = append(c.timers[:i], c.timers[i+1:]...)
			return true
		}
	}
	return false
}

// TB is the part of testing.TB the fakes use.
type TB interface {
	Helper()
	Fatalf(format string, args ...any)
}
