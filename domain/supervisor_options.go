package domain

import (
	"io"
	"log/slog"
	"math/rand/v2"
	"time"
)

// SupervisorOptions carries everything a supervisor needs from outside,
// so tests can inject a fake clock, fixed randomness and a scripted
// connector.
type SupervisorOptions struct {
	Connector    Connector
	Hub          *Hub
	Store        Store // nil keeps nothing across restarts
	Scope        Scope
	Clock        Clock
	Log          *slog.Logger
	Rand         func() float64 // in [0, 1); drives backoff jitter
	Backoff      Backoff
	AutoDisable  AutoDisable
	ProbeTimeout time.Duration // deadline of one keep-alive probe
	ListDebounce time.Duration // wait after a list_changed before re-listing
	StderrLines  int           // lines of stderr kept per server
	// Auth tells each published status its server's sign-in state; nil
	// means no server uses OAuth.
	Auth AuthSource
}

func (o SupervisorOptions) withDefaults() SupervisorOptions {
	if o.Clock == nil {
		o.Clock = SystemClock{}
	}
	if o.Log == nil {
		o.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if o.Rand == nil {
		o.Rand = rand.Float64
	}
	if o.Backoff == (Backoff{}) {
		o.Backoff = DefaultBackoff
	}
	if o.AutoDisable == (AutoDisable{}) {
		o.AutoDisable = DefaultAutoDisable
	}
	if o.ProbeTimeout == 0 {
		o.ProbeTimeout = 10 * time.Second
	}
	if o.ListDebounce == 0 {
		o.ListDebounce = 250 * time.Millisecond
	}
	if o.StderrLines == 0 {
		o.StderrLines = 200
	}
	if o.Hub == nil {
		o.Hub = NewHub()
	}
	return o
}
