package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"time"
)

// errGone marks a failure that means Switchboard is not there any more, or
// no longer knows the session: the bridge reconnects and tries again.
var errGone = errors.New("switchboard is gone")

// metaProtocolVersion is where a 2026-07-28 client names its protocol
// version in each request; over HTTP the header must repeat it.
const metaProtocolVersion = "io.modelcontextprotocol/protocolVersion"

// setHeaders adds what every request to the endpoint carries.
func setHeaders(req *http.Request, st connState) {
	if st.token != "" {
		req.Header.Set("Authorization", "Bearer "+st.token)
	}
	if st.session != "" {
		req.Header.Set("Mcp-Session-Id", st.session)
	}
	if st.protocol != "" {
		req.Header.Set("Mcp-Protocol-Version", st.protocol)
	}
}

// modernVersion returns the protocol version a 2026-07-28 request names in
// its _meta, or "" for a message of the initialize era.
func modernVersion(params json.RawMessage) string {
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if len(params) == 0 || json.Unmarshal(params, &p) != nil {
		return ""
	}
	var v string
	_ = json.Unmarshal(p.Meta[metaProtocolVersion], &v)
	return v
}

// post sends one message to the endpoint and hands every message of the
// answer to emit. A failure before any answer arrived that means
// Switchboard is gone wraps errGone; the message was not processed then,
// so sending it again is safe.
func (b *bridge) post(ctx context.Context, st connState, body []byte, m message, emit func([]byte)) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, st.endpoint, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("post: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if m.Method == "initialize" {
		st.session, st.protocol = "", "" // initialize opens a session; no version is agreed yet
	}
	setHeaders(req, st)
	if v := modernVersion(m.Params); v != "" {
		req.Header.Set("Mcp-Protocol-Version", v)
		req.Header.Del("Mcp-Session-Id")
	}
	resp, err := b.http.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("%w: %w", errGone, err)
	}
	defer resp.Body.Close()
	if m.Method == "initialize" && resp.StatusCode == http.StatusOK {
		if sid := resp.Header.Get("Mcp-Session-Id"); sid != "" {
			b.mu.Lock()
			if b.conn.gen == st.gen {
				b.conn.session = sid
			}
			b.mu.Unlock()
		}
	}
	return b.relayResponse(resp, st, emit)
}

// relayResponse hands the messages of one HTTP answer to emit: none for
// 202, the body for JSON, every event's data for an event stream.
func (b *bridge) relayResponse(resp *http.Response, st connState, emit func([]byte)) error {
	media, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch {
	case resp.StatusCode == http.StatusAccepted:
		return nil
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return fmt.Errorf("%s refused the token (%s); pass a client token with --token-file or SWITCHBOARD_CLIENT_TOKEN, or --data of the Switchboard that issued it", st.endpoint, resp.Status)
	case media == "text/event-stream" && resp.StatusCode == http.StatusOK:
		return readEvents(resp.Body, b.cfg.maxMessageBytes, emit)
	}
	msg, err := readBounded(resp.Body, b.cfg.maxMessageBytes)
	if err != nil {
		return err
	}
	if media == "application/json" && isJSONRPC(msg) {
		// An error status with a JSON-RPC body is the protocol's answer
		// (a 404 of a 2026-07-28 server is "method not found"): relay it.
		compact, err := compactJSON(msg)
		if err != nil {
			return fmt.Errorf("%s answered %s with a body that is not JSON: %w", st.endpoint, resp.Status, err)
		}
		emit(compact)
		return nil
	}
	switch {
	case resp.StatusCode == http.StatusNotFound && st.session != "":
		return fmt.Errorf("%w: %s no longer knows session %s", errGone, st.endpoint, st.session)
	case resp.StatusCode == http.StatusNotFound:
		return fmt.Errorf("%s is not an MCP endpoint of this Switchboard (is --server the name of one of its servers?)", st.endpoint)
	case resp.StatusCode/100 != 2:
		return fmt.Errorf("%s answered %s: %s", st.endpoint, resp.Status, printableBytes(bytes.TrimSpace(msg), 200))
	}
	if len(bytes.TrimSpace(msg)) > 0 {
		return fmt.Errorf("%s answered with something that is not JSON-RPC (%s)", st.endpoint, media)
	}
	return nil
}

// listen keeps one GET event stream open for what Switchboard sends of its
// own accord: list changes, log messages, pings, requests to the client.
// It ends when the bridge stops or reconnects (a reconnect starts a new
// one); a stream that ends while Switchboard is gone starts a reconnect.
func (b *bridge) listen(ctx context.Context, gen int) {
	delay := 250 * time.Millisecond
	waiting := false // said that Switchboard is gone
	for ctx.Err() == nil {
		st := b.state()
		if st.gen != gen || st.session == "" {
			return
		}
		err := b.stream(ctx, st)
		switch {
		case ctx.Err() != nil:
			return
		case errors.Is(err, errNoStream):
			b.log.Debug("Switchboard offers no listening stream", "error", err)
			return
		case errors.Is(err, errGone):
			// Reconnect (starting Switchboard if need be) now rather
			// than on the client's next message, so that the servers
			// have connected again by the time the client calls them.
			_, rerr := b.reconnect(gen, "")
			if rerr == nil {
				return // the new session has a stream of its own
			}
			if !waiting {
				b.log.Warn("Switchboard stopped and could not be reached again; still trying", "error", rerr)
				waiting = true
			}
		case err != nil:
			b.log.Info("listening stream ended; opening it again", "error", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(delay):
		}
		delay = min(2*delay, 10*time.Second)
	}
}

// errNoStream means the endpoint serves no GET stream (405), which the
// protocol allows.
var errNoStream = errors.New("no listening stream")

// stream reads one GET event stream until it ends.
func (b *bridge) stream(ctx context.Context, st connState) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, st.endpoint, nil)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	req.Header.Set("Accept", "text/event-stream")
	setHeaders(req, st)
	resp, err := b.http.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("%w: %w", errGone, err)
	}
	defer resp.Body.Close()
	media, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch {
	case resp.StatusCode == http.StatusMethodNotAllowed:
		return fmt.Errorf("%w: %s", errNoStream, resp.Status)
	case resp.StatusCode == http.StatusNotFound:
		return fmt.Errorf("%w: %s no longer knows session %s", errGone, st.endpoint, st.session)
	case resp.StatusCode != http.StatusOK || media != "text/event-stream":
		return fmt.Errorf("%w: %s answered %s (%s)", errNoStream, st.endpoint, resp.Status, media)
	}
	err = readEvents(resp.Body, b.cfg.maxMessageBytes, b.out.write)
	if err == nil || errors.Is(err, io.ErrUnexpectedEOF) {
		// A stream that ends cleanly may mean Switchboard stopped; the
		// next attempt finds out which.
		return errors.New("the stream ended")
	}
	return err
}

// reconnect finds (or starts) Switchboard again, opens a new session by
// replaying the client's initialize and notifications/initialized, and
// starts a new listening stream. A reconnect started by another message
// since the caller's generation is reused, not repeated. during is the
// method being sent, which is not replayed (it is about to be sent).
func (b *bridge) reconnect(gen int, during string) (connState, error) {
	b.reconnecting.Lock()
	defer b.reconnecting.Unlock()
	if st := b.state(); st.gen != gen {
		return st, nil
	}
	base, token, err := b.locate(b.ctx)
	if err != nil {
		return connState{}, err
	}
	b.mu.Lock()
	if b.stopListen != nil {
		b.stopListen()
		b.stopListen = nil
	}
	b.conn = connState{endpoint: b.endpointURL(base), token: token, gen: gen + 1}
	if gen < 0 {
		b.conn.gen = 0
	}
	init, initialized := b.initialize, b.initialized
	st := b.conn
	b.mu.Unlock()
	if during == "initialize" || init == nil {
		return st, nil
	}
	if err := b.post(b.ctx, st, init, message{Method: "initialize"}, b.replayed); err != nil {
		return connState{}, fmt.Errorf("initialize again: %w", err)
	}
	st = b.state()
	if initialized != nil && during != "notifications/initialized" {
		if err := b.post(b.ctx, st, initialized, message{Method: "notifications/initialized"}, b.replayed); err != nil {
			return connState{}, fmt.Errorf("initialize again: %w", err)
		}
	}
	b.log.Info("reconnected to Switchboard", "endpoint", st.endpoint)
	b.startListening(st)
	return st, nil
}

// replayed takes the answer to a replayed initialize, which the client
// already has from the first time: only the agreed version is kept.
func (b *bridge) replayed(msg []byte) {
	var res struct {
		Result struct {
			ProtocolVersion string `json:"protocolVersion"`
		} `json:"result"`
		Error *json.RawMessage `json:"error"`
	}
	if json.Unmarshal(msg, &res) != nil {
		return
	}
	if res.Error != nil {
		b.log.Warn("Switchboard refused the replayed initialize", "error", string(printableBytes(*res.Error, 300)))
		return
	}
	if res.Result.ProtocolVersion != "" {
		b.mu.Lock()
		b.conn.protocol = res.Result.ProtocolVersion
		b.mu.Unlock()
	}
}

// startListening opens the listening stream of st's session, once the
// client has initialized; it replaces any stream of an older session.
func (b *bridge) startListening(st connState) {
	if st.session == "" || b.ctx.Err() != nil {
		return
	}
	ctx, cancel := context.WithCancel(b.ctx)
	b.mu.Lock()
	if b.conn.gen != st.gen {
		b.mu.Unlock()
		cancel()
		return
	}
	if b.stopListen != nil {
		b.stopListen()
	}
	b.stopListen = cancel
	b.mu.Unlock()
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		b.listen(ctx, st.gen)
	}()
}

// closeSession ends the session when the client is done, so Switchboard
// can forget it at once; it waits a short while at most.
func (b *bridge) closeSession() {
	st := b.state()
	if st.session == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(b.ctx), 2*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, st.endpoint, nil)
	if err != nil {
		return
	}
	setHeaders(req, st)
	if resp, err := b.http.Do(req); err == nil {
		resp.Body.Close()
	}
}

// isJSONRPC reports whether msg is a JSON-RPC message (or a batch of
// them), not some other JSON such as a web framework's error page.
func isJSONRPC(msg []byte) bool {
	msg = bytes.TrimSpace(msg)
	if len(msg) > 0 && msg[0] == '[' {
		var batch []json.RawMessage
		return json.Unmarshal(msg, &batch) == nil && len(batch) > 0 && isJSONRPC(batch[0])
	}
	var m struct {
		JSONRPC string `json:"jsonrpc"`
	}
	return json.Unmarshal(msg, &m) == nil && m.JSONRPC == "2.0"
}

// compactJSON returns msg on one line, or an error when it is not JSON,
// so stdout only ever carries whole JSON-RPC messages.
func compactJSON(msg []byte) ([]byte, error) {
	var buf bytes.Buffer
	if err := json.Compact(&buf, msg); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// readBounded reads r whole, refusing more than limit bytes.
func readBounded(r io.Reader, limit int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("read answer: %w", err)
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("an answer is larger than --max-message-bytes (%d)", limit)
	}
	return b, nil
}

// printableBytes returns at most n bytes of b with control characters
// replaced, for an error message that quotes what a server said.
func printableBytes(b []byte, n int) []byte {
	if len(b) > n {
		b = b[:n]
	}
	return []byte(printable(string(b)))
}
