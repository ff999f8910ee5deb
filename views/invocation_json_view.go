package views

import (
	"bytes"
	"encoding/json"
)

// Caps of a JSON view (arguments, structured content, an unknown item).
// Indenting is quadratic in depth, so a 30 KB result nested 5000 deep once
// became a 50 MB card pushed to every open page; past any cap the view is
// cut and the card offers the raw download instead.
const (
	JSONViewDepth   = 64       // containers shown nested; deeper ones read {…} or […]
	JSONViewMembers = 1000     // members shown per object or array, then …
	JSONViewBytes   = 64 << 10 // bytes of pretty-printed text, like InlineTextCap
)

// jsonEllipsis stands for what a JSON view leaves out.
const jsonEllipsis = "…"

// boundedJSON pretty-prints raw with two-space indentation, exactly as
// json.Indent would while no cap is reached, and reports whether a cap cut
// it. It never builds the value and stops writing at maxBytes, so its cost
// is linear in the input. Text that is not JSON is returned as it is, cut
// at maxBytes.
func boundedJSON(raw []byte, maxBytes int) (string, bool) {
	raw = bytes.TrimSpace(raw)
	if !json.Valid(raw) {
		if len(raw) > maxBytes {
			return cutUTF8(string(raw), maxBytes) + jsonEllipsis, true
		}
		return string(raw), false
	}
	p := jsonPrinter{src: raw, max: maxBytes}
	p.out.Grow(min(len(raw)*2, maxBytes) + 64)
	p.value(0)
	return p.out.String(), p.cut
}

// jsonPrinter walks JSON already known to be valid, writing its indented
// form until a cap is reached.
type jsonPrinter struct {
	src  []byte
	pos  int
	out  bytes.Buffer
	max  int
	cut  bool // a cap left something out
	full bool // the byte cap is reached; nothing more is written
	// blob, when set, may replace a string value (never a key) by
	// what it returns, so a view can collapse long base64.
	blob func(s []byte) ([]byte, bool)
}

// write appends s, or as much of it as the byte cap allows followed by an
// ellipsis, after which every write is dropped.
func (p *jsonPrinter) write(s []byte) {
	if p.full {
		return
	}
	if room := p.max - p.out.Len(); len(s) > room {
		p.out.WriteString(cutUTF8(string(s), max(room, 0)))
		p.out.WriteString(jsonEllipsis)
		p.full, p.cut = true, true
		return
	}
	p.out.Write(s)
}

func (p *jsonPrinter) writeString(s string) { p.write([]byte(s)) }

// newline starts a line indented for depth. Depth is at most JSONViewDepth,
// so one line's indentation stays small.
func (p *jsonPrinter) newline(depth int) {
	var b [1 + 2*JSONViewDepth + 2]byte
	b[0] = '\n'
	n := 1
	for range depth {
		b[n], b[n+1] = ' ', ' '
		n += 2
	}
	p.write(b[:n])
}

func (p *jsonPrinter) skipSpace() {
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// value prints the value at p.pos, a container at nesting depth depth.
func (p *jsonPrinter) value(depth int) {
	p.skipSpace()
	if p.pos >= len(p.src) {
		return
	}
	switch c := p.src[p.pos]; c {
	case '{', '[':
		p.container(depth, c)
	case '"':
		end := p.stringEnd(p.pos)
		if p.blob != nil {
			if r, ok := p.blob(p.src[p.pos:end]); ok {
				p.write(r)
				p.pos = end
				return
			}
		}
		p.write(p.src[p.pos:end])
		p.pos = end
	default:
		start := p.pos
		for p.pos < len(p.src) && !isJSONDelim(p.src[p.pos]) {
			p.pos++
		}
		p.write(p.src[start:p.pos])
	}
}

// container prints an object or array. Past JSONViewDepth it is replaced
// by {…} or […]; past JSONViewMembers the rest of its members are.
func (p *jsonPrinter) container(depth int, open byte) {
	closer := byte('}')
	if open == '[' {
		closer = ']'
	}
	if depth >= JSONViewDepth {
		p.write([]byte{open})
		p.writeString(jsonEllipsis)
		p.write([]byte{closer})
		p.cut = true
		p.skipContainer()
		return
	}
	p.write([]byte{open})
	p.pos++
	p.skipSpace()
	if p.pos < len(p.src) && p.src[p.pos] == closer {
		p.write([]byte{closer})
		p.pos++
		return
	}
	closed := false
	for n := 0; !p.full; n++ {
		p.newline(depth + 1)
		if n == JSONViewMembers {
			p.writeString(jsonEllipsis)
			p.cut = true
			p.skipNested()
			closed = true
			break
		}
		if open == '{' {
			p.skipSpace()
			end := p.stringEnd(p.pos)
			p.write(p.src[p.pos:end])
			p.pos = end
			p.skipSpace()
			p.pos++ // the colon
			p.writeString(": ")
		}
		p.value(depth + 1)
		p.skipSpace()
		if p.pos >= len(p.src) || p.src[p.pos] != ',' {
			break
		}
		p.write([]byte{','})
		p.pos++
	}
	if p.full {
		return
	}
	if !closed {
		p.skipSpace()
		p.pos++ // the closer
	}
	p.newline(depth)
	p.write([]byte{closer})
}

// stringEnd returns the index just past the string starting at i.
func (p *jsonPrinter) stringEnd(i int) int {
	for i++; i < len(p.src); i++ {
		switch p.src[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(p.src)
}

// skipContainer moves past the object or array starting at p.pos.
func (p *jsonPrinter) skipContainer() {
	p.pos++
	p.skipNested()
}

// skipNested moves past the rest of a container whose opener is already
// consumed, its closer included, stepping over strings so that brackets
// inside them do not count.
func (p *jsonPrinter) skipNested() {
	depth := 1
	for p.pos < len(p.src) && depth > 0 {
		switch p.src[p.pos] {
		case '"':
			p.pos = p.stringEnd(p.pos)
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		}
		p.pos++
	}
}

func isJSONDelim(c byte) bool {
	switch c {
	case ',', ']', '}', ' ', '\t', '\n', '\r', ':':
		return true
	}
	return false
}
