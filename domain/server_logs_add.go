package domain

// Taking in a server's log message: parsing, cutting and redacting it, and
// waking subscribers once its burst is over.

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
)

// logParams is what notifications/message carries.
type logParams struct {
	Level  string          `json:"level"`
	Logger string          `json:"logger"`
	Data   json.RawMessage `json:"data"`
}

// Add keeps n when it is a log message at or above the level the drawer
// asked for, redacted with the server's redactor, and tells subscribers
// once the burst it belongs to is over. Any other notification, params
// that are not an object, or a server the redactors no longer know are
// ignored.
func (l *ServerLogs) Add(n ServerNotification) {
	if n.Method != NotifyMessage {
		return
	}
	var p logParams
	if err := json.Unmarshal(n.Params, &p); err != nil {
		return
	}
	level := cutText(p.Level, maxLogLevelLen)
	l.mu.Lock()
	hidden := l.belowDrawerLocked(n.Server, level)
	l.mu.Unlock()
	if hidden {
		return
	}
	var r Redactor
	if l.opts.Redactors != nil {
		var err error
		if r, err = l.opts.Redactors.Redactor(n.Server); err != nil {
			return // removed meanwhile
		}
	}
	e := ServerLog{
		At:     l.opts.Clock.Now(),
		Level:  level,
		Logger: r.Redact(cutText(p.Logger, maxLoggerLen)),
	}
	if !ValidLogLevel(level) {
		e.Level = r.Redact(level)
	}
	var text string
	text, e.Truncated = logText(p.Data, l.opts.MaxDataBytes)
	e.Text = r.Redact(text)
	// The data itself is kept only when short and free of secrets:
	// escapes can make its JSON several times longer than its text.
	// Anything but a string reads as its own JSON, already redacted.
	if raw := compactJSON(p.Data); !e.Truncated && len(raw) > 0 && len(raw) <= 2*l.opts.MaxDataBytes {
		clean := e.Text == text
		if clean && string(raw) != text {
			clean = r.Redact(string(raw)) == string(raw)
		}
		if clean {
			e.Data = slices.Clone(raw)
		}
	}

	l.mu.Lock()
	defer l.mu.Unlock()
	ring := l.rings[n.Server]
	if ring == nil {
		ring = &logRing{}
		l.rings[n.Server] = ring
	}
	ring.seq++
	e.Seq = ring.seq
	if len(ring.entries) == l.opts.Entries {
		ring.entries = append(ring.entries[:0], ring.entries[1:]...)
	}
	ring.entries = append(ring.entries, e)
	l.burstLocked()
}

// burstLocked wakes subscribers now, or after the burst window when there
// is one; messages arriving meanwhile ride the same wake-up.
func (l *ServerLogs) burstLocked() {
	if l.opts.Burst < 0 {
		l.notifyLocked()
		return
	}
	if l.pending {
		return
	}
	l.pending = true
	t := l.opts.Clock.NewTimer(l.opts.Burst)
	go func() {
		<-t.C()
		l.mu.Lock()
		l.pending = false
		l.notifyLocked()
		l.mu.Unlock()
	}()
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
