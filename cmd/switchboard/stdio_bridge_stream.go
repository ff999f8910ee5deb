package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"time"
)

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
