package domain

import (
	"context"
	"fmt"
	"slices"
	"sync"
)

// levelWishes is what was asked of one server's logging level: by the
// drawer, and by each client (the gateway) that relays the server's
// messages further. A server has one level, so it is asked for the most
// detailed of them, and each reader filters down to its own.
type levelWishes struct {
	// send serialises the requests to the server, so two changes cannot
	// reach it in the opposite order to the one they were decided in.
	send    sync.Mutex
	drawer  string            // "" while nobody picked one in the drawer
	clients map[string]string // client -> level it asked for
	sent    string            // the level the server last agreed to
}

// upstream is the most detailed level anyone asked for, or "" when nobody
// asked.
func (w *levelWishes) upstream() string {
	best := w.drawer
	for _, lv := range w.clients {
		if best == "" || levelRank(lv) < levelRank(best) {
			best = lv
		}
	}
	return best
}

// levelRank is level's place in LogLevels, from 0 (debug); an unknown
// level ranks after every known one.
func levelRank(level string) int {
	if i := slices.Index(LogLevels, level); i >= 0 {
		return i
	}
	return len(LogLevels)
}

// wishesLocked returns server's wishes, made on first use.
func (l *ServerLogs) wishesLocked(server string) *levelWishes {
	w := l.levels[server]
	if w == nil {
		w = &levelWishes{clients: map[string]string{}}
		l.levels[server] = w
	}
	return w
}

// belowDrawerLocked reports whether a message at level is less severe
// than the level the drawer asked server for, and so is not kept: the
// server may send it only because a client asked for more. A level that
// is not one of LogLevels is kept, since its severity is unknown.
func (l *ServerLogs) belowDrawerLocked(server, level string) bool {
	w := l.levels[server]
	if w == nil || w.drawer == "" || !ValidLogLevel(level) {
		return false
	}
	return levelRank(level) < levelRank(w.drawer)
}

// Level returns the level a person last asked server for in the drawer,
// or "" when nobody did: the drawer then keeps every message the server
// sends.
func (l *ServerLogs) Level(server string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if w := l.levels[server]; w != nil {
		return w.drawer
	}
	return ""
}

// UpstreamLevel returns the level server was last asked for and agreed
// to, or "" when it was never asked.
func (l *ServerLogs) UpstreamLevel(server string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if w := l.levels[server]; w != nil {
		return w.sent
	}
	return ""
}

// SetLevel records the drawer's level for server and asks the server for
// the most detailed level of the drawer's and its clients', so a client
// that wants more keeps getting it; the drawer still keeps only messages
// at level or above. The drawer's choice is remembered once the server
// agreed, and asked again after a reconnect (Follow). A level outside
// LogLevels is ErrInvalidRequest.
func (l *ServerLogs) SetLevel(ctx context.Context, server, level string) error {
	if !ValidLogLevel(level) {
		return fmt.Errorf("log level %q: %w", cutText(level, maxLogLevelLen), ErrInvalidRequest)
	}
	if l.opts.Levels == nil {
		return fmt.Errorf("set log level of %s: %w", server, ErrNotConnected)
	}
	l.mu.Lock()
	w := l.wishesLocked(server)
	l.mu.Unlock()
	w.send.Lock()
	defer w.send.Unlock()

	l.mu.Lock()
	prev := w.drawer
	w.drawer = level
	want := w.upstream()
	l.mu.Unlock()
	// The drawer always asks, even for the level already sent: its answer
	// tells the person whether the server is there to agree.
	if err := l.opts.Levels.SetLogLevel(ctx, server, want); err != nil {
		l.mu.Lock()
		w.drawer = prev
		l.mu.Unlock()
		return err
	}
	l.mu.Lock()
	w.sent = want
	l.mu.Unlock()
	return nil
}

// SetClientLevel records the level client (a relay of server's messages,
// such as the gateway) asks server for, "" when it no longer asks, and
// asks the server for the most detailed level anyone now wants when that
// changed. A client's wish is kept even when the server refused, so it
// is asked again after a reconnect. When nobody asks for a level any
// more, the server keeps the last one: MCP has no way to take one back.
func (l *ServerLogs) SetClientLevel(ctx context.Context, server, client, level string) error {
	if level != "" && !ValidLogLevel(level) {
		return fmt.Errorf("log level %q: %w", cutText(level, maxLogLevelLen), ErrInvalidRequest)
	}
	l.mu.Lock()
	w := l.wishesLocked(server)
	l.mu.Unlock()
	w.send.Lock()
	defer w.send.Unlock()

	l.mu.Lock()
	if level == "" {
		delete(w.clients, client)
	} else {
		w.clients[client] = level
	}
	want, sent := w.upstream(), w.sent
	l.mu.Unlock()
	if want == "" || want == sent {
		return nil
	}
	if l.opts.Levels == nil {
		return fmt.Errorf("set log level of %s: %w", server, ErrNotConnected)
	}
	if err := l.opts.Levels.SetLogLevel(ctx, server, want); err != nil {
		return err
	}
	l.mu.Lock()
	w.sent = want
	l.mu.Unlock()
	return nil
}

// resend asks server again for the level everyone's wishes add up to,
// after a reconnect that made it forget; "" when nobody asked for one.
func (l *ServerLogs) resend(ctx context.Context, server string) (string, error) {
	l.mu.Lock()
	w := l.levels[server]
	l.mu.Unlock()
	if w == nil || l.opts.Levels == nil {
		return "", nil
	}
	w.send.Lock()
	defer w.send.Unlock()
	l.mu.Lock()
	want := w.upstream()
	w.sent = ""
	l.mu.Unlock()
	if want == "" {
		return "", nil
	}
	if err := l.opts.Levels.SetLogLevel(ctx, server, want); err != nil {
		return want, err
	}
	l.mu.Lock()
	w.sent = want
	l.mu.Unlock()
	return want, nil
}

// Forget drops what is kept of server: its messages and every level
// asked of it.
func (l *ServerLogs) Forget(server string) {
	l.mu.Lock()
	delete(l.rings, server)
	delete(l.levels, server)
	l.mu.Unlock()
}
