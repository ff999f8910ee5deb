//go:build e2e

package e2e

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// npxStartLimit is how long the npx test waits: an empty cache means
// npm downloads the package first (12–17 s measured, more on a loaded CI
// machine), all inside the defaults (startTimeoutSeconds 120).
const npxStartLimit = 3 * time.Minute

// TestParityNpxEmptyCache: an `npx -y` entry on an empty npm cache, with
// no timeout settings at all, connects on its first start: no failed
// attempt, no npm killed mid-download.
func TestParityNpxEmptyCache(t *testing.T) {
	t.Parallel()
	cache := t.TempDir()
	const name = "memory-npx"
	in := startWith(t, servers{name: {
		"command": "npx",
		"args":    []string{"-y", "@modelcontextprotocol/server-memory@2026.8.31"},
		"env": map[string]string{
			"npm_config_cache": cache,
			"MEMORY_FILE_PATH": filepath.Join(t.TempDir(), "memory.jsonl"),
		},
	}})
	began := time.Now()
	i, st := waitStateWithin(t, in, name, "connected", npxStartLimit)
	t.Logf("%s connected after %s", name, time.Since(began).Round(100*time.Millisecond))
	for _, s := range in.events.since(0)[:i] {
		if s.ServerName == name && (s.State == "error" || s.State == "disabled") {
			t.Errorf("%s failed before it connected: %v", name, s)
		}
	}
	if st.ToolCount != 9 {
		t.Errorf("%s tools: got %d, want server-memory's 9", name, st.ToolCount)
	}
	if _, err := os.Stat(filepath.Join(cache, "_npx")); err != nil {
		t.Errorf("npx did not install into the fresh cache %s: %v", cache, err)
	}
}

// waitStateWithin is waitState with a limit of its own, for waits
// longer than waitLong; it returns the snapshot's index too.
func waitStateWithin(t *testing.T, in *instance, server, state string, limit time.Duration) (int, status) {
	t.Helper()
	l := in.events
	deadline := time.NewTimer(limit)
	defer deadline.Stop()
	for i := 0; ; {
		l.mu.Lock()
		for ; i < len(l.list); i++ {
			if s := l.list[i]; s.ServerName == server && s.State == state {
				l.mu.Unlock()
				return i, s
			}
		}
		grew, err := l.grew, l.err
		l.mu.Unlock()
		if err != nil {
			t.Fatalf("waiting for %s %s: %v", server, state, err)
		}
		select {
		case <-grew:
		case <-deadline.C:
			t.Fatalf("%s not %s within %s; its snapshots: %v", server, state, limit, l.since(0))
		}
	}
}
