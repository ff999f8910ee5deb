package domain

import (
	"context"
	"time"
)

// MinuteOutcomes counts the calls that started in one minute, by how
// they ended; Other holds those still pending, running or awaiting
// approval.
type MinuteOutcomes struct {
	Start     time.Time // the minute's first instant
	Success   int
	Error     int
	Cancelled int
	Denied    int
	Other     int
}

// Total is how many calls started in the minute.
func (m MinuteOutcomes) Total() int {
	return m.Success + m.Error + m.Cancelled + m.Denied + m.Other
}

// CallStats counts stored calls for the dashboard's charts. It is its
// own interface, not part of InvocationStore, because only pictures need
// it; the sqlite invocation store implements both.
type CallStats interface {
	// CallsPerMinute counts the scope's calls that started in
	// [since, until) and match f (its Before and Limit are ignored), per
	// minute in UTC; only minutes with calls, oldest first.
	CallsPerMinute(ctx context.Context, scope Scope, since, until time.Time, f InvocationFilter) ([]MinuteOutcomes, error)
	// CallTimings returns the newest limit of server's calls that started
	// at or after since and ended with an answer (success or error),
	// oldest first: only their times and status, never arguments or
	// results, since a drawer's sparkline reloads on every probe.
	CallTimings(ctx context.Context, scope Scope, server string, since time.Time, limit int) ([]CallTiming, error)
}

// CallTiming is one answered call's round trip, for the latency sparkline.
type CallTiming struct {
	StartedAt, EndedAt time.Time
	Status             InvocationStatus
}
