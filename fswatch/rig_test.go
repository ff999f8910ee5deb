package fswatch

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/switchboard-mcp/switchboard/domain/domaintest"
)

var epoch = time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)

// guard bounds every real-time wait; it only stops a broken test.
const guard = 10 * time.Second

// rig is a real watcher on real files whose debounce runs on a fake clock.
type rig struct {
	t       *testing.T
	w       *Watcher
	clock   *domaintest.Clock
	handled chan string // names of raw events the loop has finished handling
	syncs   int
}

// start watches paths; their directories must already exist.
func start(t *testing.T, paths ...string) *rig {
	t.Helper()
	r := &rig{t: t, clock: domaintest.NewClock(epoch), handled: make(chan string, 4096)}
	w, err := watch(t.Context(), Options{
		Paths: paths, Clock: r.clock, Log: slog.New(slog.NewTextHandler(t.Output(), nil)),
	}, func(ev fsnotify.Event) { r.handled <- ev.Name })
	if err != nil {
		t.Fatalf("watch: %v", err)
	}
	r.w = w
	t.Cleanup(func() { _ = w.Close() })
	return r
}

// settle returns once the watcher has handled every event caused so far.
// It creates a sentinel file in dir, which the watcher ignores, and waits
// for its event: the kernel queues events in order, so every earlier one
// has been handled by then.
func (r *rig) settle(dir string) {
	r.t.Helper()
	r.syncs++
	sentinel := filepath.Join(dir, fmt.Sprintf(".sync-%d", r.syncs))
	write(r.t, sentinel, "")
	deadline := time.After(guard)
	for {
		select {
		case name := <-r.handled:
			if name == sentinel {
				return
			}
		case <-deadline:
			r.t.Fatalf("watcher never saw %s", sentinel)
		}
	}
}

// fire ends the quiet period: exactly one debounce timer must be running.
func (r *rig) fire() {
	r.t.Helper()
	r.clock.WaitForTimer(r.t, DefaultDebounce)
	if got := r.clock.Timers(); len(got) != 1 {
		r.t.Fatalf("timers: got %v, want one of %v", got, DefaultDebounce)
	}
	r.clock.Advance(DefaultDebounce)
}

// expectChange receives the next Change and checks its paths.
func (r *rig) expectChange(want ...string) {
	r.t.Helper()
	select {
	case c, ok := <-r.w.Changes():
		if !ok {
			r.t.Fatalf("Changes closed, want %v", want)
		}
		if !slices.Equal(c.Paths, want) {
			r.t.Fatalf("change: got %v, want %v", c.Paths, want)
		}
	case <-time.After(guard):
		r.t.Fatalf("no change, want %v", want)
	}
}

// expectQuiet checks that nothing is pending: no Change waiting and no
// debounce running. After settle this is a fact, not a timing guess.
func (r *rig) expectQuiet() {
	r.t.Helper()
	if got := r.clock.Timers(); len(got) != 0 {
		r.t.Fatalf("timers: got %v, want none", got)
	}
	select {
	case c, ok := <-r.w.Changes():
		r.t.Fatalf("got change %v (open %v), want none", c.Paths, ok)
	default:
	}
}

// write is os.WriteFile: open with O_TRUNC, write, close.
func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// settingsIn creates dir/settings.json and returns its path.
func settingsIn(t *testing.T, dir string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "settings.json")
	write(t, path, `{"mcpServers":{}}`)
	return path
}

// cancelled returns a context that is already done.
func cancelled() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}
