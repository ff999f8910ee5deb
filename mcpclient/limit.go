package mcpclient

import (
	"bytes"
	"fmt"
	"io"
)

// DefaultMaxMessageBytes is the largest message a server may send when
// Options.MaxMessageBytes is zero. It is well above the store's result cap,
// so results that are stored truncated still arrive whole, and low enough
// that a hostile or broken server cannot exhaust memory.
const DefaultMaxMessageBytes = 32 << 20

// tooLargeError says what passed the limit and what Switchboard did about
// it, in words a person reads on the dashboard.
type tooLargeError struct {
	limit   int64
	what    string // "a message", "a response", "an event"
	detail  string // said after the size, such as " (no line end)"
	outcome string // "it was stopped", "it was cut off", ...
}

func (e *tooLargeError) Error() string {
	return fmt.Sprintf("the server sent %s over %s%s; %s", e.what, byteSize(e.limit), e.detail, e.outcome)
}

func (e *tooLargeError) Is(target error) bool { return target == ErrMessageTooLarge }

// byteSize renders n in the largest binary unit that divides it, so the
// default limit reads "32 MiB".
func byteSize(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// framing says where one message ends in a stream of bytes.
type framing int

const (
	framingWhole framing = iota // the whole stream is one message: a JSON body
	framingLine                 // a message ends at '\n': stdio
	framingEvent                // a message ends at a blank line: server-sent events
)

// meter counts the bytes of the message being received, so that a reader can
// refuse the first byte past the limit before anything buffers it.
type meter struct {
	max     int64
	framing framing
	n       int64 // bytes of the current message so far
	text    bool  // framingEvent: the current line holds more than '\r'
}

// fit consumes b and returns how many of its leading bytes fit within the
// limit: len(b), unless the current message grows too large in b.
func (m *meter) fit(b []byte) int {
	if m.framing == framingWhole {
		room := m.max - m.n
		if int64(len(b)) > room {
			m.n = m.max
			return int(room)
		}
		m.n += int64(len(b))
		return len(b)
	}
	done := 0
	for done < len(b) {
		rest := b[done:]
		end := bytes.IndexByte(rest, '\n')
		line := rest
		if end >= 0 {
			line = rest[:end]
		}
		text := m.text || len(bytes.TrimLeft(line, "\r")) > 0
		if end >= 0 && m.framing == framingEvent && !text {
			// A blank line ends the event; its '\r' count for neither.
			m.n = 0
			done += end + 1
			continue
		}
		need := int64(len(line))
		if end >= 0 && m.framing == framingEvent {
			need++ // an event's line ends count towards it
		}
		if room := m.max - m.n; need > room {
			return done + int(min(room, int64(len(line))))
		}
		if end < 0 {
			m.n += need
			m.text = text
			return len(b)
		}
		m.n += need
		if m.framing == framingLine {
			m.n = 0
		}
		m.text = false
		done += end + 1
	}
	return done
}

// limitReader passes a stream through until one message passes the limit;
// from then on it returns tooLarge and delivers nothing more.
type limitReader struct {
	r        io.Reader
	meter    meter
	tooLarge error
	// overflow runs once, on the reading goroutine, when the limit is
	// passed and before the error is returned. It must not block.
	overflow func(error)
	failed   bool
}

func newLimitReader(r io.Reader, max int64, f framing, tooLarge error, overflow func(error)) *limitReader {
	return &limitReader{r: r, meter: meter{max: max, framing: f}, tooLarge: tooLarge, overflow: overflow}
}

func (l *limitReader) Read(b []byte) (int, error) {
	if l.failed {
		return 0, l.tooLarge
	}
	n, err := l.r.Read(b)
	if k := l.meter.fit(b[:n]); k < n {
		l.failed = true
		if l.overflow != nil {
			l.overflow(l.tooLarge)
		}
		return k, l.tooLarge
	}
	return n, err
}
