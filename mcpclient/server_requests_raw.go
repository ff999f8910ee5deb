package mcpclient

import (
	"bytes"
	"encoding/json"
	"io"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
)

// Bounds on what sentParams keeps. A request larger than maxTappedMessage
// (a sampling request full of images, say) is passed on as mcp-go decoded
// it, re-encoded; the bound also keeps the tap's copying of each message
// small next to mcp-go's own for large results. More than maxKeptParams
// unanswered requests mean something is off, and later ones are treated
// the same way.
const (
	maxTappedMessage = 1 << 20
	maxKeptParams    = 64
	// keptLineCap is the buffer a tap keeps between messages; a larger
	// one, grown by a large message, is dropped. It is small because every
	// idle session keeps one: at 64 KiB, 200 servers' tool lists left
	// megabytes of buffers behind, and regrowing for a large message costs
	// little beside reading it.
	keptLineCap = 4 << 10
)

// sentParams keeps the params of the elicitation, sampling and roots
// requests a server sent, as the bytes it sent, until serverAsks takes
// them. mcp-go decodes an incoming request's params into plain Go values,
// which lose key order and any number beyond a float64's precision; a tap
// on the server's output sees each message first, before mcp-go reads it,
// so the bytes are here by the time the request handler runs.
type sentParams struct {
	mu   sync.Mutex // guards byID
	byID map[string]json.RawMessage
}

// askMethods are the methods whose params are kept, as they appear in a
// message; anything that mentions none of them is not parsed.
var askMethods = [][]byte{[]byte(`"elicitation/create"`), []byte(`"sampling/createMessage"`), []byte(`"roots/list"`)}

// see keeps msg's params if it is a request serverAsks answers.
func (p *sentParams) see(msg []byte) {
	if !bytes.Contains(msg, []byte(`"method"`)) {
		return
	}
	mentioned := false
	for _, m := range askMethods {
		if bytes.Contains(msg, m) {
			mentioned = true
			break
		}
	}
	if !mentioned {
		return
	}
	var req struct {
		ID     *mcp.RequestId  `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if json.Unmarshal(msg, &req) != nil || req.ID == nil || req.ID.IsNil() || !asked(req.Method) {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.byID == nil {
		p.byID = make(map[string]json.RawMessage)
	}
	if len(p.byID) < maxKeptParams {
		p.byID[req.ID.String()] = req.Params
	}
}

// take returns and forgets the params kept for the request id, and
// reports whether there were any.
func (p *sentParams) take(id mcp.RequestId) (json.RawMessage, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	params, ok := p.byID[id.String()]
	delete(p.byID, id.String())
	return params, ok
}

// messageTap passes a server's output through and shows every message in
// it to see: each line of a stdio stream (framingLine), or the data of
// each event of an event stream (framingEvent). Messages over its limit
// are not shown.
type messageTap struct {
	r       io.Reader
	framing framing
	see     func([]byte)
	limit   int // maxTappedMessage; smaller in tests

	line     []byte // the current line so far
	lineLong bool   // the current line passed the limit
	data     []byte // framingEvent: the current event's data so far
	hasData  bool   // framingEvent: the current event has a data line
	dataLong bool   // framingEvent: the current event passed the limit
}

func newMessageTap(r io.Reader, f framing, see func([]byte)) *messageTap {
	return &messageTap{r: r, framing: f, see: see, limit: maxTappedMessage}
}

func (t *messageTap) Read(b []byte) (int, error) {
	n, err := t.r.Read(b)
	rest := b[:n]
	for len(rest) > 0 {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			t.grow(rest)
			break
		}
		t.grow(rest[:i])
		t.endLine()
		rest = rest[i+1:]
	}
	if err != nil && t.framing == framingEvent {
		t.endEvent() // a stream may end without the final blank line
	}
	return n, err
}

func (t *messageTap) grow(b []byte) {
	if t.lineLong {
		return
	}
	if len(t.line)+len(b) > t.limit {
		t.lineLong, t.line = true, t.line[:0]
		return
	}
	t.line = append(t.line, b...)
}

func (t *messageTap) endLine() {
	line, long := bytes.TrimSuffix(t.line, []byte("\r")), t.lineLong
	defer func() {
		t.line, t.lineLong = t.line[:0], false
		if cap(t.line) > keptLineCap {
			t.line = nil
		}
	}()
	if t.framing == framingLine {
		if !long {
			t.see(line)
		}
		return
	}
	switch {
	case long:
		t.dataLong = true
	case len(line) == 0:
		t.endEvent()
	case bytes.HasPrefix(line, []byte("data:")) && !t.dataLong:
		d := bytes.TrimPrefix(line[len("data:"):], []byte(" "))
		if t.hasData {
			t.data = append(t.data, '\n')
		}
		t.data, t.hasData = append(t.data, d...), true
		if len(t.data) > t.limit {
			t.dataLong, t.data = true, t.data[:0]
		}
	}
}

func (t *messageTap) endEvent() {
	if t.hasData && !t.dataLong {
		t.see(t.data)
	}
	t.data, t.hasData, t.dataLong = t.data[:0], false, false
	if cap(t.data) > keptLineCap {
		t.data = nil
	}
}
