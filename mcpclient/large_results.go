package mcpclient

import (
	"bytes"
	"encoding/json"
	"io"
	"sync"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
)

// divertAbove is the size from which a stdio line that answers a call is
// kept out of mcp-go. mcp-go reads a line into a string (collected in
// pieces first) and copies it five more times (the line as bytes for each
// of two decodes, the result, its content, its text), so a 30 MB result
// cost Switchboard about 150 MB at its peak; Switchboard passes on the
// bytes the server sent and needs none of those copies.
const divertAbove = 1 << 20

// divertStubs are the results mcp-go receives in place of a diverted one,
// by the method of the request: each is the smallest answer mcp-go decodes
// without an error. Only requests whose result Switchboard takes as sent
// (sendRaw) and whose decoded form nothing reads are listed; a list page,
// whose decoded entries and cursor mcp-go uses, is never diverted.
var divertStubs = map[string]string{
	string(mcp.MethodToolsCall):     `{"content":[]}`,
	string(mcp.MethodResourcesRead): `{"contents":[]}`,
	string(mcp.MethodTasksResult):   `{"content":[]}`,
}

// largeResults holds the large results diverted from a stdio server's
// output until the request they answer takes them.
type largeResults struct {
	mu      sync.Mutex                 // guards waiting and held
	waiting map[string]string          // request id -> the stub mcp-go gets instead
	held    map[string]json.RawMessage // request id -> the result as the server sent it
}

// expect marks the request id as one whose large result may be diverted,
// with the stub mcp-go is given in its place.
func (l *largeResults) expect(id, stub string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.waiting == nil {
		l.waiting = map[string]string{}
		l.held = map[string]json.RawMessage{}
	}
	l.waiting[id] = stub
}

// take forgets the request id and returns its diverted result, if one
// arrived. A result arriving after take is passed to mcp-go whole, which
// drops it as it drops any answer nobody waits for.
func (l *largeResults) take(id string) (json.RawMessage, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	res, ok := l.held[id]
	delete(l.held, id)
	delete(l.waiting, id)
	return res, ok
}

// divert keeps the result of line, a whole message without its line end,
// if it answers an expected request, and returns the line mcp-go reads in
// its place. It reports false for anything else, which mcp-go then reads
// as sent: requests, notifications, errors, invalid JSON, answers nobody
// expects, and 2026-07-28 requests for more input, which mcp-go handles.
func (l *largeResults) divert(line []byte) ([]byte, bool) {
	if !json.Valid(line) {
		return nil, false
	}
	msg := domain.JSONMembers(line)
	result, rawID := msg["result"], msg["id"]
	if result == nil || rawID == nil || msg["method"] != nil || msg["error"] != nil {
		return nil, false
	}
	var id mcp.RequestId
	if json.Unmarshal(rawID, &id) != nil || id.IsNil() {
		return nil, false
	}
	if t := domain.JSONMembers(result)["resultType"]; t != nil {
		var kind string
		if json.Unmarshal(t, &kind) == nil && kind == "input_required" {
			return nil, false
		}
	}
	key := id.String()
	l.mu.Lock()
	defer l.mu.Unlock()
	stub, ok := l.waiting[key]
	if !ok {
		return nil, false
	}
	l.held[key] = result
	out := make([]byte, 0, len(rawID)+len(stub)+48)
	out = append(out, `{"jsonrpc":"2.0","id":`...)
	out = append(out, rawID...)
	out = append(out, `,"result":`...)
	out = append(out, stub...)
	return append(out, '}', '\n'), true
}

// sendRequest sends req through send. If the result was diverted, it
// returns mcp-go's response (with the stub) and, as whole, the response
// with the result the server sent; otherwise whole is nil.
func (l *largeResults) sendRequest(req transport.JSONRPCRequest, send func() (*transport.JSONRPCResponse, error)) (resp, whole *transport.JSONRPCResponse, err error) {
	stub, ok := divertStubs[req.Method]
	if l == nil || !ok || req.ID.IsNil() {
		resp, err := send()
		return resp, nil, err
	}
	key := req.ID.String()
	l.expect(key, stub)
	resp, err = send()
	res, held := l.take(key)
	if !held || err != nil || resp == nil {
		return resp, nil, err
	}
	w := *resp
	w.Result = res
	return resp, &w, nil
}

// reader passes a stdio server's output to mcp-go line by line, holding
// each line until it ends or passes divertAbove; a longer line is
// collected whole and, if it is an expected result, replaced (see divert).
func (l *largeResults) reader(r io.Reader) io.Reader {
	return &divertReader{r: r, large: l, above: divertAbove}
}

// divertReader is the io.Reader of largeResults.reader. An idle session
// keeps no buffer: lines are passed on in the caller's buffer when a read
// ends at a line end, as it nearly always does, and copied only when one
// spans reads.
type divertReader struct {
	r     io.Reader
	large *largeResults
	above int // divertAbove; smaller in tests

	out  [][]byte // whole lines for the caller, in order
	line []byte   // the current line, when a read ended inside it and it is at most above bytes
	long [][]byte // the current line once it is longer, in chunks
	size int      // the bytes in long
	err  error    // r's error, returned once out is empty
}

func (d *divertReader) Read(b []byte) (int, error) {
	for {
		if len(d.out) > 0 {
			n := copy(b, d.out[0])
			if d.out[0] = d.out[0][n:]; len(d.out[0]) == 0 {
				d.out = d.out[1:]
			}
			if len(d.out) == 0 {
				d.out = nil
			}
			return n, nil
		}
		if d.err != nil {
			return 0, d.err
		}
		n, err := d.r.Read(b)
		p := b[:n]
		if err != nil {
			// mcp-go drops a line its read ended in; so does this.
			d.err = err
		}
		if len(d.line) == 0 && d.long == nil && n <= d.above {
			whole := bytes.LastIndexByte(p, '\n') + 1
			if err == nil && whole < n {
				d.line = append(d.line, p[whole:]...)
			}
			if whole > 0 {
				return whole, nil
			}
			continue
		}
		d.take(p)
		if err != nil {
			d.line, d.long, d.size = nil, nil, 0
		}
	}
}

// take continues the current line with p, queueing in out a copy of each
// line that ends in it.
func (d *divertReader) take(p []byte) {
	for len(p) > 0 {
		end := bytes.IndexByte(p, '\n')
		seg := p
		if end >= 0 {
			seg = p[:end]
			p = p[end+1:]
		} else {
			p = nil
		}
		switch {
		case d.long != nil:
			d.grow(seg)
		case len(d.line)+len(seg) > d.above:
			d.long, d.size = [][]byte{append(d.line, seg...)}, len(d.line)+len(seg)
			d.line = nil
		default:
			d.line = append(d.line, seg...)
		}
		if end < 0 {
			break
		}
		if d.long != nil {
			d.endLong()
			continue
		}
		d.out = append(d.out, append(d.line, '\n'))
		d.line = nil
	}
}

// grow adds seg to a long line, in chunks of a quarter of what it holds so
// far, so that collecting it costs little more than its size.
func (d *divertReader) grow(seg []byte) {
	for len(seg) > 0 {
		last := &d.long[len(d.long)-1]
		if len(*last) == cap(*last) {
			d.long = append(d.long, make([]byte, 0, max(divertAbove, d.size/4)))
			continue
		}
		n := min(len(seg), cap(*last)-len(*last))
		*last = append(*last, seg[:n]...)
		seg, d.size = seg[n:], d.size+n
	}
}

// endLong queues a long line that has ended: its stub if it was diverted,
// else the line itself.
func (d *divertReader) endLong() {
	line := make([]byte, 0, d.size+1)
	for _, c := range d.long {
		line = append(line, c...)
	}
	d.long, d.size = nil, 0
	if stub, ok := d.large.divert(bytes.TrimSuffix(line, []byte("\r"))); ok {
		d.out = append(d.out, stub)
		return
	}
	d.out = append(d.out, append(line, '\n'))
}
