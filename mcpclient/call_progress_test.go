package mcpclient_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/mcpclient"
)

// progressLog collects progress callbacks; CallTool calls it from one
// goroutine, the test reads it from another.
type progressLog struct {
	mu  sync.Mutex // guards got
	got []domain.Progress
}

func (l *progressLog) add(p domain.Progress) {
	l.mu.Lock()
	l.got = append(l.got, p)
	l.mu.Unlock()
}

func (l *progressLog) all() []domain.Progress {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]domain.Progress(nil), l.got...)
}

func TestCallToolReportsProgress(t *testing.T) {
	t.Parallel()
	for transport, s := range demoSessions(t) {
		t.Run(transport, func(t *testing.T) {
			t.Parallel()
			var log progressLog
			r := call(t, s, "long_task", `{"steps":3,"stepMillis":50}`, log.add)
			if !strings.Contains(r.Content[0]["text"].(string), "finished 3 steps") {
				t.Errorf("result %v, want the task finished", r.Content)
			}
			got := log.all()
			// mcp-go's stdio server writes notifications from a goroutine of
			// their own, so the last one may land after the result (and is
			// then not reported); the first is 100 ms ahead of it. Its HTTP
			// server may drop progress altogether.
			if transport == "stdio" && len(got) < 1 {
				t.Fatalf("got %d progress callbacks, want at least 1", len(got))
			}
			for i, p := range got {
				if p.Total != 3 || p.Progress < 1 || p.Progress > 3 || !strings.HasPrefix(p.Message, "finished step") {
					t.Errorf("progress %d = %+v, want n of 3 with a message", i, p)
				}
				if i > 0 && p.Progress <= got[i-1].Progress {
					t.Errorf("progress went from %v to %v, want it to grow", got[i-1].Progress, p.Progress)
				}
			}
		})
	}
}

// A progress callback is never called after CallTool returns, so a caller
// may release what it uses.
func TestCallToolWithoutProgressCallback(t *testing.T) {
	t.Parallel()
	s := connect(t, mcpclient.New(mcpclient.Options{}), demoStdio(), nil)
	call(t, s, "long_task", `{"steps":2,"stepMillis":1}`, nil)
}
