package views

import (
	"math"
	"strconv"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// TimeProps is an instant shown as a relative time ("2 seconds ago"). The
// text is a server-rendered fallback; the page's script rewrites it every
// second from EpochMS in the page's language.
type TimeProps struct {
	EpochMS  int64
	ISO      string // the datetime attribute
	Relative Message
}

// NewTimeProps describes t relative to now.
func NewTimeProps(t, now time.Time) TimeProps {
	return TimeProps{EpochMS: t.UnixMilli(), ISO: t.UTC().Format(time.RFC3339), Relative: relativeTime(t, now)}
}

// relativeTime picks the largest whole unit, as Intl.RelativeTimeFormat
// with numeric "auto" would, so the fallback and the script agree.
func relativeTime(t, now time.Time) Message {
	d := t.Sub(now)
	secs := int64(math.Round(d.Seconds()))
	future := secs > 0
	abs := secs
	if abs < 0 {
		abs = -abs
	}
	if abs == 0 {
		return Message{ID: "RelNow"}
	}
	unit, n := "Seconds", abs
	switch {
	case abs >= 86400:
		unit, n = "Days", abs/86400
	case abs >= 3600:
		unit, n = "Hours", abs/3600
	case abs >= 60:
		unit, n = "Minutes", abs/60
	}
	dir := "Ago"
	if future {
		dir = "In"
	}
	return Message{ID: "Rel" + unit + dir, Data: map[string]any{"Count": n}}
}

// TooltipProps is the detail behind a chip. Optional parts are nil when
// the snapshot has nothing to say, so a reconnected server's tooltip
// carries no trace of its last error: a connect clears every error.
type TooltipProps struct {
	// Server names whose last probes the tooltip draws (chart_probes.go).
	Server string
	State  Message
	// Attempt is beside the state while an outage lasts: "attempt 2 of 5"
	// where it can end in auto-disable, "retrying every 30 s" where it
	// cannot and the retries have reached the backoff's ceiling.
	Attempt  *Message
	Counts   []Message
	LastSync *TimeProps
	Latency  *LatencyProps

	// Starting is set while a stdio server's process starts.
	Starting *StartingProps
	// LastStderr is the process's newest stderr line, shown labelled as
	// context: what a starting server is busy with, or what a killed or
	// cut-off one last said. Never the error's cause.
	LastStderr string

	Error string // redacted by the domain; escaped by templ
	// ErrorMsg, when set, says Error in the page's language.
	ErrorMsg    *Message
	Category    string
	ExitCode    *Message
	LastErrorAt *TimeProps
	Retry       *RetryProps
	// Auth is where a remote server's sign-in stands; nil for servers
	// without one.
	Auth *Message
	// AuthHint, under Auth, says where to sign in: the action beside
	// the chip. Nil says nothing.
	AuthHint *Message
}

// StartingProps is "starting · 12 s": the seconds since the process
// started, which the page's script keeps counting from SinceMS; Seconds is
// the server-rendered fallback.
type StartingProps struct {
	SinceMS int64
	Seconds int64
}

// SinceAttr is the start as an attribute value.
func (p StartingProps) SinceAttr() string { return strconv.FormatInt(p.SinceMS, 10) }

// SecondsText is the fallback count as text.
func (p StartingProps) SecondsText() string { return strconv.FormatInt(p.Seconds, 10) }

// LatencyProps is the last probe's round trip.
type LatencyProps struct {
	MS   float64 // for the script's Intl.NumberFormat
	Text Message
}

// RetryProps is either a countdown to the next attempt or the reason
// there will be none.
type RetryProps struct {
	Deadline *TimeProps // nil: no automatic retry
	NoRetry  Message
}

// HasError reports whether the tooltip shows an error block.
func (p TooltipProps) HasError() bool { return p.Error != "" }

// NewTooltipProps builds a tooltip from one snapshot.
func NewTooltipProps(s domain.Status, now time.Time) TooltipProps {
	p := TooltipProps{
		Server: s.ServerName,
		State:  Message{ID: stateID(s.State)},
		Counts: []Message{
			{ID: "ToolCount", Data: map[string]any{"Count": s.ToolCount}},
			{ID: "ResourceCount", Data: map[string]any{"Count": s.ResourceCount}},
			{ID: "PromptCount", Data: map[string]any{"Count": s.PromptCount}},
		},
	}
	if !s.LastSyncAt.IsZero() {
		t := NewTimeProps(s.LastSyncAt, now)
		p.LastSync = &t
	}
	if s.HasLatency {
		ms := float64(s.Latency.Microseconds()) / 1000
		p.Latency = &LatencyProps{MS: ms, Text: Message{ID: "LatencyValue", Data: map[string]any{"MS": formatMS(ms)}}}
	}
	if s.State == domain.StateConnecting && !s.StartingSince.IsZero() {
		p.Starting = &StartingProps{SinceMS: s.StartingSince.UnixMilli(),
			Seconds: max(0, int64(now.Sub(s.StartingSince)/time.Second))}
		p.LastStderr = s.LastStderr
	}
	if s.Auth != nil {
		p.Auth = &Message{ID: authStateID(s.Auth)}
	}
	if signInWaits(s) {
		// A server waiting for a sign-in has no error to show and no retry
		// coming: the person signs in from the drawer.
		p.State = Message{ID: signInStateID(s)}
		p.Retry = &RetryProps{NoRetry: Message{ID: "TipSignInHint"}}
		return p
	}
	if s.Error == "" {
		return p
	}
	if s.State == domain.StateConnected {
		// A re-list that failed: the last good lists keep serving and
		// nothing is retried, but the lists may be stale.
		p.Error = s.Error
		p.Category = string(s.ErrorCategory)
		if !s.LastErrorAt.IsZero() {
			t := NewTimeProps(s.LastErrorAt, now)
			p.LastErrorAt = &t
		}
		return p
	}
	if p.LastStderr == "" {
		p.LastStderr = s.ErrorStderr
	}
	// "attempt N of 5" only where retries, and so auto-disable, can happen:
	// never beside "No automatic retry" for a config or TLS error, nor past
	// the count, as slow starts that do not count toward it can go, nor for
	// an outage of the path to a server (MaxAttempts 0), which never
	// disables it and at the ceiling says how often it keeps trying.
	retrying := s.State != domain.StateDisabled && s.Retryable
	switch {
	case retrying && s.Attempt > 0 && s.MaxAttempts > 0 && s.Attempt <= s.MaxAttempts:
		p.Attempt = &Message{ID: "TipAttempt", Data: map[string]any{"Attempt": s.Attempt, "Max": s.MaxAttempts}}
	case retrying && s.MaxAttempts == 0 && s.RetryEvery > 0:
		p.Attempt = &Message{ID: "TipRetryingEvery", Data: map[string]any{"Seconds": int64(s.RetryEvery / time.Second)}}
	}
	p.Error = s.Error
	p.ErrorMsg = errorMessage(s)
	p.Category = string(s.ErrorCategory)
	if s.ExitCode != nil {
		p.ExitCode = &Message{ID: "TipExitCode", Data: map[string]any{"Code": *s.ExitCode}}
	}
	if !s.LastErrorAt.IsZero() {
		t := NewTimeProps(s.LastErrorAt, now)
		p.LastErrorAt = &t
	}
	if s.State == domain.StateConnecting {
		return p // the retry is happening now
	}
	p.Retry = &RetryProps{NoRetry: Message{ID: "TipNoRetry"}}
	if s.State == domain.StateError && s.Retryable && s.AutoReconnect && !s.NextRetryAt.IsZero() {
		t := NewTimeProps(s.NextRetryAt, now)
		p.Retry.Deadline = &t
	}
	return p
}

// formatMS keeps one decimal below 10 ms, where it means something.
func formatMS(ms float64) string {
	if ms < 10 {
		return strconv.FormatFloat(math.Round(ms*10)/10, 'f', -1, 64)
	}
	return strconv.FormatFloat(math.Round(ms), 'f', 0, 64)
}

// stateID is the message id of a state's name, which the dot's
// accessible name and the tooltip share.
func stateID(st domain.State) string {
	switch st {
	case domain.StateConnected:
		return "StateConnected"
	case domain.StateConnecting:
		return "StateConnecting"
	case domain.StateError:
		return "StateError"
	}
	return "StateDisabled"
}
