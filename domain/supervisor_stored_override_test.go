package domain_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// lockedBuffer is a log destination that supervisors write from their own
// goroutines.
type lockedBuffer struct {
	mu sync.Mutex // guards b
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// A keep-alive interval stored by an older drawer that allowed 1-4 s is
// outside today's range: it is dropped at start, with a warning, and the
// file's interval applies; an in-range one still applies.
func TestStoredOverrideOutOfRangeIsDropped(t *testing.T) {
	var logs lockedBuffer
	r := newRig(t, func(o *domain.FleetOptions) {
		o.Log = slog.New(slog.NewTextHandler(&logs, nil))
	})
	scope := domain.Scope{User: "local", Workspace: "/w"}
	for name, ka := range map[string]time.Duration{"old": 2 * time.Second, "ok": 6 * time.Second} {
		if err := r.store.SaveServerRecord(context.Background(), scope, domain.ServerRecord{Name: name,
			Overrides: domain.SettingsOverride{KeepAlive: ptr(ka), AutoReconnect: ptr(false)}}); err != nil {
			t.Fatal(err)
		}
	}
	r.attach(server("old"), server("ok"))
	st := r.waitPhase("old", domain.PhaseConnecting)
	if st.KeepAlive != 30*time.Second {
		t.Errorf("old: keepAlive %v, want the file's 30s instead of the stored 2s", st.KeepAlive)
	}
	if st.AutoReconnect {
		t.Errorf("old: the stored autoReconnect=false was dropped with the bad keep-alive")
	}
	if st := r.waitPhase("ok", domain.PhaseConnecting); st.KeepAlive != 6*time.Second {
		t.Errorf("ok: keepAlive %v, want the stored 6s", st.KeepAlive)
	}
	var warned []string
	for _, line := range strings.Split(logs.String(), "\n") {
		if strings.Contains(line, "level=WARN") && strings.Contains(line, "keep-alive") {
			warned = append(warned, line)
		}
	}
	if len(warned) != 1 || !strings.Contains(warned[0], "server=old") {
		t.Errorf("warnings %q, want one about old", warned)
	}
	r.conn.Next(t).Fail(transient("refused"))
	r.conn.Next(t).Fail(transient("refused"))
}
