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
