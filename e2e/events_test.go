//go:build e2e

package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// status is the part of the API's status object the tests read.
type status struct {
	ServerName     string   `json:"serverName"`
	State          string   `json:"state"`
	Phase          string   `json:"phase"`
	DisabledReason *string  `json:"disabledReason"`
	Attempt        int      `json:"attempt"`
	NextRetryAt    *int64   `json:"nextRetryAt"`
	Error          *string  `json:"error"`
	ErrorCategory  *string  `json:"errorCategory"`
	LastErrorAt    *int64   `json:"lastErrorAt"`
	Retryable      bool     `json:"retryable"`
	ToolCount      int      `json:"toolCount"`
	ResourceCount  int      `json:"resourceCount"`
	PromptCount    int      `json:"promptCount"`
	LatencyMs      *float64 `json:"latencyMs"`
	LastSyncAt     *int64   `json:"lastSyncAt"`
	ConnectedAt    *int64   `json:"connectedAt"`
	Version        uint64   `json:"version"`
}

func (s status) String() string {
	e := ""
	if s.Error != nil {
		e = " error=" + *s.Error
	}
	return fmt.Sprintf("%s %s/%s v%d%s", s.ServerName, s.State, s.Phase, s.Version, e)
}

// eventLog is every status snapshot one /api/v1/events stream delivered,
// in order, so a test can wait for a snapshot after a mark and reason
// about what did or did not arrive in between.
type eventLog struct {
	mu   sync.Mutex // guards list, grew and err
	list []status
	grew chan struct{} // closed and replaced whenever list grows or the stream ends
	err  error         // why the stream ended
}

// follow reads url's event stream into an eventLog until ctx ends.
func follow(ctx context.Context, t *testing.T, url string) *eventLog {
	t.Helper()
	l := &eventLog{grew: make(chan struct{})}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("open event stream: %v", err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("event stream: got %s, want 200", resp.Status)
	}
	go func() {
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		event := ""
		for sc.Scan() {
			if name, ok := strings.CutPrefix(sc.Text(), "event: "); ok {
				event = name
				continue
			}
			data, ok := strings.CutPrefix(sc.Text(), "data: ")
			if !ok || event != "status" {
				continue
			}
			var s status
			if err := json.Unmarshal([]byte(data), &s); err != nil {
				continue
			}
			l.mu.Lock()
			l.list = append(l.list, s)
			close(l.grew)
			l.grew = make(chan struct{})
			l.mu.Unlock()
		}
		l.mu.Lock()
		l.err = fmt.Errorf("event stream ended: %v", sc.Err())
		close(l.grew)
		l.mu.Unlock()
	}()
	return l
}

// len is the number of snapshots received so far: a mark for wait.
func (l *eventLog) len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.list)
}

// since returns the snapshots from index from on.
func (l *eventLog) since(from int) []status {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]status(nil), l.list[min(from, len(l.list)):]...)
}

// wait returns the first snapshot at index >= from that matches, waiting
// up to waitLong for it.
func (l *eventLog) wait(t *testing.T, from int, what string, match func(status) bool) (int, status) {
	t.Helper()
	deadline := time.NewTimer(waitLong)
	defer deadline.Stop()
	for i := from; ; {
		l.mu.Lock()
		for ; i < len(l.list); i++ {
			if match(l.list[i]) {
				s := l.list[i]
				l.mu.Unlock()
				return i, s
			}
		}
		grew, err := l.grew, l.err
		l.mu.Unlock()
		if err != nil {
			t.Fatalf("waiting for %s: %v", what, err)
		}
		select {
		case <-grew:
		case <-deadline.C:
			t.Fatalf("no %s within %s; snapshots since the mark: %v", what, waitLong, l.since(from))
		}
	}
}
