package domain

import (
	"context"
	"encoding/json"
	"log/slog"
	"slices"
	"sync"
	"time"
)

// LogLevels are the MCP logging levels (RFC 5424 severities), from most to
// least detailed; a server asked for one sends it and everything after it.
var LogLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// ValidLogLevel reports whether level is one of LogLevels.
func ValidLogLevel(level string) bool { return slices.Contains(LogLevels, level) }

// ServerLog is one log message (notifications/message) a server sent.
// Everything in it is the server's own text: untrusted, and shown only
// escaped.
type ServerLog struct {
	// Seq numbers the messages of one server from 1, so a reader can tell
	// which it already has.
	Seq    uint64
	At     time.Time // when Switchboard received it
	Level  string    // as the server sent it, cut to maxLogLevelLen
	Logger string    // empty when the server named none
	// Data is the message's data as sent (insignificant white space
	// dropped), or nil when it was longer than the kept size; Text then
	// holds its beginning.
	Data json.RawMessage
	// Text is Data for reading: a JSON string unquoted, anything else as
	// compact JSON, cut to the kept size.
	Text      string
	Truncated bool
}

// Bounds on what is kept of a server's log messages: a chatty or hostile
// server cannot grow memory or the drawer without limit.
const (
	defaultServerLogEntries = 200
	defaultServerLogBytes   = 4096
	maxLogLevelLen          = 32
	maxLoggerLen            = 256
	defaultServerLogBurst   = 50 * time.Millisecond
)

// LogLevelSetter asks a server for a logging level; *Fleet is one.
type LogLevelSetter interface {
	SetLogLevel(ctx context.Context, server, level string) error
}

// RedactorSource gives the redactor of a server's own secrets; *Fleet is
// one.
type RedactorSource interface {
	Redactor(server string) (Redactor, error)
}

// ServerLogsOptions configures ServerLogs.
type ServerLogsOptions struct {
	// Levels sends the level a person picks to the server; nil refuses
	// every SetLevel.
	Levels LogLevelSetter
	Clock  Clock        // stamps each message; nil is the system clock
	Log    *slog.Logger // Follow's failures; nil discards
	// Entries is how many messages are kept per server; 0 means 200.
	Entries int
	// MaxDataBytes bounds one message's kept data; 0 means 4096.
	MaxDataBytes int
	// Redactors removes each server's secrets from its messages once, as
	// they are kept, so no reader redacts them again; nil removes only
	// the secrets any redactor recognises by their shape.
	Redactors RedactorSource
	// Burst is how long subscribers wait after a message for the rest of
	// its burst, so a chatty server wakes each page once per burst rather
	// than once per message; 0 means 50ms, a negative value no wait.
	Burst time.Duration
}

// ServerLogs keeps each server's recent log messages for the drawer, and
// the level a person asked each server for. Add never blocks, so it can sit
// in a session's notification path.
type ServerLogs struct {
	opts ServerLogsOptions

	mu      sync.Mutex // guards rings, levels, subs, pending
	rings   map[string]*logRing
	levels  map[string]*levelWishes
	subs    map[chan struct{}]struct{}
	pending bool // a burst's timer is running and will wake subscribers
}

// logRing is one server's kept messages.
type logRing struct {
	entries []ServerLog // oldest first, at most opts.Entries
	seq     uint64      // messages received so far
}

// NewServerLogs returns an empty log keeper.
func NewServerLogs(opts ServerLogsOptions) *ServerLogs {
	if opts.Clock == nil {
		opts.Clock = SystemClock{}
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	if opts.Entries <= 0 {
		opts.Entries = defaultServerLogEntries
	}
	if opts.MaxDataBytes <= 0 {
		opts.MaxDataBytes = defaultServerLogBytes
	}
	if opts.Burst == 0 {
		opts.Burst = defaultServerLogBurst
	}
	return &ServerLogs{opts: opts, rings: map[string]*logRing{}, levels: map[string]*levelWishes{}, subs: map[chan struct{}]struct{}{}}
}

// Entries returns server's kept messages, oldest first.
func (l *ServerLogs) Entries(server string) []ServerLog {
	l.mu.Lock()
	defer l.mu.Unlock()
	r := l.rings[server]
	if r == nil {
		return nil
	}
	return slices.Clone(r.entries)
}

// Since returns server's kept messages after seq after, oldest first, and
// the server's Seq. whole reports whether they are every message after
// after: false when some were dropped from the front since, or the
// server was forgotten and counts anew, so a reader must start over with
// Entries.
func (l *ServerLogs) Since(server string, after uint64) (entries []ServerLog, seq uint64, whole bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	r := l.rings[server]
	if r == nil {
		return nil, 0, after == 0
	}
	if after > r.seq {
		return nil, r.seq, false
	}
	first := r.seq - uint64(len(r.entries)) + 1 // the oldest kept
	if after+1 < first {
		return nil, r.seq, false
	}
	return slices.Clone(r.entries[after+1-first:]), r.seq, true
}

// Cap is how many messages are kept per server: a reader that appends
// what Since returns trims its list to this many.
func (l *ServerLogs) Cap() int { return l.opts.Entries }

// Seq returns how many messages server has sent so far: a reader that saw
// the same number has seen them all.
func (l *ServerLogs) Seq(server string) uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	if r := l.rings[server]; r != nil {
		return r.seq
	}
	return 0
}

// Subscribe returns a channel signalled after new messages arrive, at most
// one signal pending, and the function that ends the subscription.
func (l *ServerLogs) Subscribe() (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	l.mu.Lock()
	l.subs[ch] = struct{}{}
	l.mu.Unlock()
	return ch, func() {
		l.mu.Lock()
		delete(l.subs, ch)
		l.mu.Unlock()
	}
}
