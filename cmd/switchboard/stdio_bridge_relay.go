package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
)

// message is the part of a JSON-RPC message the bridge routes by.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// isRequest reports whether m expects a response.
func (m message) isRequest() bool { return m.Method != "" && len(m.ID) > 0 && string(m.ID) != "null" }

// relay reads the client's messages until stdin ends, sending each to
// Switchboard. Requests run concurrently, as a client may have several
// calls in flight; notifications and responses go in order, at once.
// A signal ends it at once, even while stdin is quiet.
func (b *bridge) relay(stdin io.Reader) error {
	if _, err := b.reconnect(-1, ""); err != nil {
		return err
	}
	type read struct {
		line []byte
		err  error
	}
	reads := make(chan read)
	go func() { // not in wg: it may stay blocked on stdin until the process ends
		lines := newLineReader(stdin, b.cfg.maxMessageBytes)
		for {
			line, err := lines.next()
			select {
			case reads <- read{line, err}:
			case <-b.ctx.Done():
				return
			}
			if err != nil && !errors.Is(err, errLineTooLong) {
				return
			}
		}
	}()
	for {
		var r read
		select {
		case r = <-reads:
		case <-b.ctx.Done():
			return nil
		}
		switch {
		case errors.Is(r.err, errLineTooLong):
			b.log.Warn("dropped a message from the client larger than --max-message-bytes", "limit", b.cfg.maxMessageBytes)
		case errors.Is(r.err, io.EOF):
			b.waitRequests()
			return nil
		case r.err != nil:
			return fmt.Errorf("stdio: read: %w", r.err)
		default:
			b.dispatch(r.line)
		}
	}
}

// dispatch sends one client message on its way.
func (b *bridge) dispatch(line []byte) {
	var m message
	if err := json.Unmarshal(line, &m); err != nil || line[0] != '{' {
		if line[0] == '[' && json.Valid(line) {
			b.spawn(func() { b.deliver(line, message{}) }) // a batch from an older client
			return
		}
		b.log.Warn("dropped a line from the client that is not a JSON-RPC message")
		b.out.writeError(json.RawMessage("null"), -32700, "parse error: not a JSON-RPC message")
		return
	}
	switch {
	case m.Method == "initialize" && m.isRequest():
		b.mu.Lock()
		b.initialize = append([]byte(nil), line...)
		b.initialized = nil
		b.mu.Unlock()
		b.deliver(line, m) // everything after it needs the session it opens
	case m.Method == "notifications/initialized":
		b.mu.Lock()
		b.initialized = append([]byte(nil), line...)
		b.mu.Unlock()
		b.deliver(line, m)
		b.startListening(b.state())
	case m.isRequest():
		b.spawn(func() { b.deliver(line, m) })
	default:
		b.deliver(line, m)
	}
}

// spawn runs a request's relay in its own goroutine once a slot is free.
func (b *bridge) spawn(fn func()) {
	select {
	case b.slots <- struct{}{}:
	case <-b.ctx.Done():
		return
	}
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		defer func() { <-b.slots }()
		fn()
	}()
}

// waitRequests waits until every request in flight has its response, so
// a client that closes stdin after its last call still gets the answer.
func (b *bridge) waitRequests() {
	for range maxInFlight {
		select {
		case b.slots <- struct{}{}:
		case <-b.ctx.Done():
			return
		}
	}
}

// deliver POSTs one client message and relays what comes back. When
// Switchboard has gone away or forgotten the session, it reconnects once
// (replaying the client's initialize) and sends the message again.
func (b *bridge) deliver(line []byte, m message) {
	st := b.state()
	answered := false
	out := b.relayOut(m)
	emit := func(msg []byte) {
		if m.isRequest() && answers(msg, m.ID) {
			answered = true
		}
		out(msg)
	}
	for attempt := 0; ; attempt++ {
		err := b.post(b.ctx, st, line, m, emit)
		if err == nil || b.ctx.Err() != nil || answered {
			return
		}
		if errors.Is(err, errGone) && attempt == 0 {
			b.log.Info("Switchboard went away; reconnecting", "error", err)
			if st, err = b.reconnect(st.gen, m.Method); err == nil {
				continue
			}
		}
		b.log.Error("relay a message to Switchboard", "method", m.Method, "error", err)
		if m.isRequest() {
			b.out.writeError(m.ID, -32603, "switchboard stdio: "+err.Error())
		}
		return
	}
}

// answers reports whether msg is the response to the request with id, so
// a stream that breaks after the answer adds no second one.
func answers(msg []byte, id json.RawMessage) bool {
	var r struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(msg, &r) != nil || r.Method != "" {
		return false
	}
	got, err1 := compactJSON(r.ID)
	want, err2 := compactJSON(id)
	return err1 == nil && err2 == nil && bytes.Equal(got, want)
}

// relayOut is what happens to each message Switchboard answers with: it
// goes to stdout, and the answer to initialize also fixes the protocol
// version later requests name in their header.
func (b *bridge) relayOut(m message) func([]byte) {
	if m.Method != "initialize" {
		return b.out.write
	}
	return func(msg []byte) {
		var res struct {
			Result struct {
				ProtocolVersion string `json:"protocolVersion"`
			} `json:"result"`
		}
		if json.Unmarshal(msg, &res) == nil && res.Result.ProtocolVersion != "" {
			b.mu.Lock()
			b.conn.protocol = res.Result.ProtocolVersion
			b.mu.Unlock()
		}
		b.out.write(msg)
	}
}

// lineWriter writes whole messages to stdout, one per line, from any
// goroutine.
type lineWriter struct {
	mu sync.Mutex // guards w, so lines never interleave
	w  io.Writer
}

func (w *lineWriter) write(msg []byte) {
	w.mu.Lock()
	defer w.mu.Unlock()
	_, _ = w.w.Write(append(msg, '\n'))
}

// writeError answers the client's request id with a JSON-RPC error, for
// a request the bridge could not deliver.
func (w *lineWriter) writeError(id json.RawMessage, code int, text string) {
	msg, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0", "id": id,
		"error": map[string]any{"code": code, "message": text},
	})
	w.write(msg)
}
