package domain

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"strings"
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
)

// LogLevelSetter asks a server for a logging level; *Fleet is one.
type LogLevelSetter interface {
	SetLogLevel(ctx context.Context, server, level string) error
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
}

// ServerLogs keeps each server's recent log messages for the drawer, and
// the level a person asked each server for. Add never blocks, so it can sit
// in a session's notification path.
type ServerLogs struct {
	opts ServerLogsOptions

	mu     sync.Mutex // guards rings, levels, subs
	rings  map[string]*logRing
	levels map[string]string
	subs   map[chan struct{}]struct{}
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
	return &ServerLogs{opts: opts, rings: map[string]*logRing{}, levels: map[string]string{}, subs: map[chan struct{}]struct{}{}}
}

// logParams is what notifications/message carries.
type logParams struct {
	Level  string          `json:"level"`
	Logger string          `json:"logger"`
	Data   json.RawMessage `json:"data"`
}

// Add keeps n when it is a log message and tells subscribers; any other
// notification, or params that are not an object, are ignored.
func (l *ServerLogs) Add(n ServerNotification) {
	if n.Method != NotifyMessage {
		return
	}
	var p logParams
	if err := json.Unmarshal(n.Params, &p); err != nil {
		return
	}
	e := ServerLog{
		At:     l.opts.Clock.Now(),
		Level:  cutText(p.Level, maxLogLevelLen),
		Logger: cutText(p.Logger, maxLoggerLen),
	}
	e.Text, e.Truncated = logText(p.Data, l.opts.MaxDataBytes)
	// The data itself is kept only when short: escapes can make its JSON
	// several times longer than its text.
	if raw := compactJSON(p.Data); !e.Truncated && len(raw) > 0 && len(raw) <= 2*l.opts.MaxDataBytes {
		e.Data = slices.Clone(raw)
	}

	l.mu.Lock()
	r := l.rings[n.Server]
	if r == nil {
		r = &logRing{}
		l.rings[n.Server] = r
	}
	r.seq++
	e.Seq = r.seq
	if len(r.entries) == l.opts.Entries {
		r.entries = append(r.entries[:0], r.entries[1:]...)
	}
	r.entries = append(r.entries, e)
	l.notifyLocked()
	l.mu.Unlock()
}

// notifyLocked wakes every subscriber that is not already awake.
func (l *ServerLogs) notifyLocked() {
	for ch := range l.subs {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
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

// Level returns the level a person last asked server for, or "" when
// nobody did and the server keeps its own default.
func (l *ServerLogs) Level(server string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.levels[server]
}

// SetLevel asks server for level through the options' setter and, once it
// agreed, remembers the level so it is asked again after a reconnect
// (Follow). A level outside LogLevels is ErrInvalidRequest.
func (l *ServerLogs) SetLevel(ctx context.Context, server, level string) error {
	if !ValidLogLevel(level) {
		return fmt.Errorf("log level %q: %w", cutText(level, maxLogLevelLen), ErrInvalidRequest)
	}
	if l.opts.Levels == nil {
		return fmt.Errorf("set log level of %s: %w", server, ErrNotConnected)
	}
	if err := l.opts.Levels.SetLogLevel(ctx, server, level); err != nil {
		return err
	}
	l.mu.Lock()
	l.levels[server] = level
	l.mu.Unlock()
	return nil
}

// Forget drops what is kept of server: its messages and its level.
func (l *ServerLogs) Forget(server string) {
	l.mu.Lock()
	delete(l.rings, server)
	delete(l.levels, server)
	l.mu.Unlock()
}

// logText renders data for reading and reports whether it was cut to max
// bytes.
func logText(data json.RawMessage, max int) (string, bool) {
	var s string
	if err := json.Unmarshal(data, &s); err != nil || len(data) == 0 || data[0] != '"' {
		s = string(compactJSON(data))
	}
	if len(s) <= max {
		return s, false
	}
	return cutText(s, max), true
}

// compactJSON drops the insignificant white space of raw, which is kept
// as is when it is not valid JSON.
func compactJSON(raw json.RawMessage) []byte {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return raw
	}
	return b.Bytes()
}

// cutText shortens s to at most max bytes without leaving half a
// character at the end.
func cutText(s string, max int) string {
	if len(s) <= max {
		return s
	}
	return strings.ToValidUTF8(s[:max], "")
}
