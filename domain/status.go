package domain

import "time"

// Status is one snapshot of a server, as the supervisor last reported it.
// Every error text in it is already redacted, so any consumer may show it.
type Status struct {
	ServerName string
	Source     string
	Transport  Transport
	Target     string // redacted command line or URL
	WorkDir    string // where a stdio server runs; empty for remote servers

	State          State
	Phase          Phase
	DisabledReason DisabledReason
	BlockedReason  BlockedReason // set while gating or approval keeps the server away
	// Approval is what a person is asked about a project server awaiting
	// (or denied) approval; nil otherwise. Shared, never modified. Unlike
	// the rest it is not redacted: it is the project file's own text, and
	// it never holds a value expanded from the environment.
	Approval *ApprovalRequest

	// Attempt numbers the failures of the current outage; 0 while
	// connected. While the last failure counts toward auto-disable it
	// counts those failures within the window instead, of MaxAttempts.
	Attempt int
	// MaxAttempts is how many counted failures auto-disable the server;
	// 0 while the last failure was one of the path to it (refused,
	// timeout, dns, a network never reached), which never disables.
	MaxAttempts int
	Delay       time.Duration
	NextRetryAt time.Time
	// RetryEvery is set once a failure that cannot auto-disable the
	// server retries at the backoff's ceiling: the interval it keeps
	// retrying at for as long as the outage lasts ("retrying every 30 s").
	RetryEvery time.Duration

	// StartingSince is when the process of the attempt in flight started,
	// for "starting · 12 s"; zero when no stdio process is starting.
	StartingSince time.Time
	// LastStderr is the newest line the starting process wrote to stderr
	// (redacted), what it is busy with; empty when not starting.
	LastStderr string

	Error         string // redacted; empty when there is no error
	ErrorCategory ErrorCategory
	ExitCode      *int
	// Signal names the signal that killed the process ("SIGKILL"); empty
	// unless a signal ended it.
	Signal string
	// ErrorStderr is the process's last stderr line before a kill or a
	// cut-off start (redacted): context for the error, never its cause.
	ErrorStderr string
	// TimeoutLimit and TimeoutSetting describe an attempt cut off by its
	// limit ("startTimeoutSeconds"), so views can say which to raise.
	TimeoutLimit   time.Duration
	TimeoutSetting string
	LastErrorAt    time.Time
	Retryable      bool

	ToolCount     int
	ResourceCount int
	PromptCount   int
	ConnectedAt   time.Time
	LastSyncAt    time.Time
	Latency       time.Duration
	HasLatency    bool
	// ProbedAt is when the keep-alive probe that measured Latency
	// answered, so History records each probe once however many
	// snapshots repeat its latency.
	ProbedAt        time.Time
	ProtocolVersion string
	// Auth is the server's OAuth sign-in, from SupervisorOptions.Auth; nil
	// for servers that do not use OAuth.
	Auth *AuthStatus

	// The effective settings, after a person's overrides.
	AutoReconnect bool
	KeepAlive     time.Duration

	// Version grows with every snapshot the hub accepts, across all servers,
	// so it orders snapshots of one server and resumes event streams.
	Version uint64
}

// clearError forgets every trace of the last failure. Connected snapshots
// must never carry an old error: once a server connects again, nothing
// it shows may describe the failure it recovered from.
func (s *Status) clearError() {
	s.Error = ""
	s.ErrorCategory = ""
	s.ExitCode = nil
	s.Signal = ""
	s.ErrorStderr = ""
	s.TimeoutLimit = 0
	s.TimeoutSetting = ""
	s.LastErrorAt = time.Time{}
	s.Retryable = false
	s.Delay = 0
	s.NextRetryAt = time.Time{}
	s.RetryEvery = 0
}
