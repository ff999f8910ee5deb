package domain

import (
	"bytes"
	"sync"
)

// LineRing keeps the most recent lines written to it. It is the stderr
// buffer of a stdio server: bounded, so a chatty server cannot grow memory.
type LineRing struct {
	mu      sync.Mutex // guards every field below
	lines   []string   // grows to limit as lines arrive, then wraps
	limit   int
	next    int // index of the oldest line once full
	partial []byte
	seq     uint64 // lines written so far
}

const maxLineLen = 4096

// NewLineRing returns a ring keeping at most n lines. It holds no lines up
// front: most servers write little or nothing to stderr, and a fleet of
// hundreds would otherwise keep a full, empty ring each.
func NewLineRing(n int) *LineRing { return &LineRing{limit: max(n, 1)} }

// Write splits p into lines; a trailing partial line waits for its end.
func (r *LineRing) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	data := p
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			r.partial = append(r.partial, data...)
			if len(r.partial) > maxLineLen {
				r.add(string(r.partial))
				r.partial = r.partial[:0]
			}
			break
		}
		line := append(r.partial, data[:i]...)
		r.partial = r.partial[:0]
		r.add(string(bytes.TrimRight(line, "\r")))
		data = data[i+1:]
	}
	return len(p), nil
}

func (r *LineRing) add(line string) {
	if len(line) > maxLineLen {
		line = line[:maxLineLen]
	}
	r.seq++
	if len(r.lines) < r.limit {
		if len(r.lines) == cap(r.lines) {
			// Doubling, but never past the limit.
			grown := make([]string, len(r.lines), min(max(2*len(r.lines), 8), r.limit))
			copy(grown, r.lines)
			r.lines = grown
		}
		r.lines = append(r.lines, line)
		return
	}
	r.lines[r.next] = line
	r.next = (r.next + 1) % len(r.lines)
}

// Seq returns how many lines have been written, a mark for Since.
func (r *LineRing) Seq() uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.seq
}

// Lines returns the kept lines, oldest first.
func (r *LineRing) Lines() []string { return r.Since(0, r.limit) }

// Since returns at most max of the lines written after mark, newest last.
func (r *LineRing) Since(mark uint64, max int) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := int(min(r.seq-min(mark, r.seq), uint64(len(r.lines))))
	if n > max {
		n = max
	}
	out := make([]string, 0, n)
	// Until the ring is full next stays 0 and the newest line is the last.
	for i := n; i > 0; i-- {
		out = append(out, r.lines[(r.next-i+len(r.lines))%len(r.lines)])
	}
	return out
}
