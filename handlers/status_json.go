package handlers

import (
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// StatusDTO is one server's status as the API, the event stream and the
// CLI see it. Times are epoch milliseconds and absent values are null, so
// that JavaScript and Go clients decode it without guessing.
type StatusDTO struct {
	ServerName string `json:"serverName"`
	Source     string `json:"source"`
	Transport  string `json:"transport"`
	Target     string `json:"target"`
	// WorkDir is the directory a stdio server runs in, as resolved (its
	// cwd, or the project's directory or home); null for remote servers.
	WorkDir *string `json:"workDir"`

	State          string  `json:"state"`
	Phase          string  `json:"phase"`
	DisabledReason *string `json:"disabledReason"` // "manual", "auto" or null
	BlockedReason  *string `json:"blockedReason"`  // "pending_approval", "rejected", "excluded", "not_allowed" or null
	// Approval is what approving a project server would run, as the file
	// spells it, with its fingerprint to send back; only while it awaits
	// (or was denied) a decision.
	Approval *ApprovalDTO `json:"approval,omitempty"`

	Attempt     int    `json:"attempt"`
	MaxAttempts int    `json:"maxAttempts"`
	DelayMs     int64  `json:"delayMs"`
	NextRetryAt *int64 `json:"nextRetryAt"`

	// StartingSince is when the process of a starting stdio server
	// started; LastStderr is what it last wrote to stderr meanwhile.
	StartingSince *int64  `json:"startingSince"`
	LastStderr    *string `json:"lastStderr"`

	Error         *string `json:"error"`
	ErrorCategory *string `json:"errorCategory"`
	ExitCode      *int    `json:"exitCode"`
	Signal        *string `json:"signal"` // "SIGKILL" when a signal ended the process
	// ErrorStderr is the last stderr line before a kill or a cut-off
	// start: context for the error, not its cause.
	ErrorStderr *string `json:"errorStderr"`
	// TimeoutSeconds and TimeoutSetting name the limit that cut an
	// attempt off and the setting that gives it.
	TimeoutSeconds *float64 `json:"timeoutSeconds"`
	TimeoutSetting *string  `json:"timeoutSetting"`
	LastErrorAt    *int64   `json:"lastErrorAt"`
	Retryable      bool     `json:"retryable"`

	ToolCount       int      `json:"toolCount"`
	ResourceCount   int      `json:"resourceCount"`
	PromptCount     int      `json:"promptCount"`
	ConnectedAt     *int64   `json:"connectedAt"`
	LastSyncAt      *int64   `json:"lastSyncAt"`
	LatencyMs       *float64 `json:"latencyMs"`
	ProtocolVersion *string  `json:"protocolVersion"`
	// Auth is the server's OAuth sign-in; null for servers that do not
	// use OAuth.
	Auth *AuthDTO `json:"auth"`

	AutoReconnect    bool    `json:"autoReconnect"`
	KeepAliveSeconds float64 `json:"keepAliveSeconds"`

	Version uint64 `json:"version"`
}

// ServerListDTO is the body of the server list; an object rather than a
// bare array so that fields can be added later.
type ServerListDTO struct {
	Servers []StatusDTO `json:"servers"`
}

// ServerDetailDTO is one server with everything the drawer shows: its
// status fields, its last known lists and its recent, redacted stderr.
type ServerDetailDTO struct {
	StatusDTO
	Capabilities CapabilitiesDTO `json:"capabilities"`
	Stderr       []string        `json:"stderr"`
}

// StatusJSON converts a domain snapshot into its wire form. It copies
// every pointer so the DTO never aliases a snapshot the hub still holds.
func StatusJSON(s domain.Status) StatusDTO {
	d := StatusDTO{
		ServerName:       s.ServerName,
		Source:           s.Source,
		Transport:        string(s.Transport),
		Target:           s.Target,
		WorkDir:          optString(s.WorkDir),
		State:            string(s.State),
		Phase:            string(s.Phase),
		DisabledReason:   optString(string(s.DisabledReason)),
		BlockedReason:    optString(string(s.BlockedReason)),
		Attempt:          s.Attempt,
		MaxAttempts:      s.MaxAttempts,
		DelayMs:          s.Delay.Milliseconds(),
		NextRetryAt:      epochMillis(s.NextRetryAt),
		StartingSince:    epochMillis(s.StartingSince),
		LastStderr:       optString(s.LastStderr),
		Error:            optString(s.Error),
		ErrorCategory:    optString(string(s.ErrorCategory)),
		Signal:           optString(s.Signal),
		ErrorStderr:      optString(s.ErrorStderr),
		TimeoutSetting:   optString(s.TimeoutSetting),
		LastErrorAt:      epochMillis(s.LastErrorAt),
		Retryable:        s.Retryable,
		ToolCount:        s.ToolCount,
		ResourceCount:    s.ResourceCount,
		PromptCount:      s.PromptCount,
		ConnectedAt:      epochMillis(s.ConnectedAt),
		LastSyncAt:       epochMillis(s.LastSyncAt),
		ProtocolVersion:  optString(s.ProtocolVersion),
		AutoReconnect:    s.AutoReconnect,
		KeepAliveSeconds: s.KeepAlive.Seconds(),
		Version:          s.Version,
	}
	if s.Approval != nil {
		d.Approval = ApprovalJSON(s.Approval)
	}
	if s.Auth != nil {
		d.Auth = AuthJSON(*s.Auth)
	}
	if s.ExitCode != nil {
		code := *s.ExitCode
		d.ExitCode = &code
	}
	if s.TimeoutSetting != "" {
		secs := s.TimeoutLimit.Seconds()
		d.TimeoutSeconds = &secs
	}
	if s.HasLatency {
		ms := float64(s.Latency) / float64(time.Millisecond)
		d.LatencyMs = &ms
	}
	return d
}

// StatusListJSON converts a list of snapshots, keeping their order.
func StatusListJSON(list []domain.Status) ServerListDTO {
	out := ServerListDTO{Servers: make([]StatusDTO, len(list))}
	for i, s := range list {
		out.Servers[i] = StatusJSON(s)
	}
	return out
}

func optString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// epochMillis returns nil for the zero time, which the domain uses for
// "never".
func epochMillis(t time.Time) *int64 {
	if t.IsZero() {
		return nil
	}
	ms := t.UnixMilli()
	return &ms
}
