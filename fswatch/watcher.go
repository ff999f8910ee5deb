package fswatch

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/switchboard-mcp/switchboard/domain"
)

// counted are the operations that can change a file's content. Chmod is
// left out: it is frequent, comes from tools that never touch content, and
// on Linux also accompanies a remove that is reported anyway.
const counted = fsnotify.Create | fsnotify.Write | fsnotify.Remove | fsnotify.Rename

// Watcher reports changes to a set of settings files until it is closed or
// its context ends.
type Watcher struct {
	changes chan Change
	cancel  context.CancelFunc
	done    chan struct{} // closed once the loop has stopped and err is set
	err     error         // from closing the fsnotify watcher
}

// Watch starts watching opts.Paths. It stops when ctx ends or Close is
// called; either way Changes is then closed.
func Watch(ctx context.Context, opts Options) (*Watcher, error) {
	return watch(ctx, opts, nil)
}

// watch is Watch with a hook called after the loop has handled each raw
// event, watched or not. Tests use it to learn that every event of an
// edit has been handled: the kernel queues events in order, so once a
// later event for a sentinel file is seen, all earlier ones were.
func watch(ctx context.Context, opts Options, handled func(fsnotify.Event)) (*Watcher, error) {
	opts = opts.withDefaults()
	tg, err := newTargets(opts.Paths)
	if err != nil {
		return nil, err
	}
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("start file watcher: %w", err)
	}
	for _, dir := range tg.dirs {
		if err := fw.Add(dir); err != nil {
			_ = fw.Close()
			return nil, fmt.Errorf("watch directory %s: %w", dir, err)
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	w := &Watcher{changes: make(chan Change, 1), cancel: cancel, done: make(chan struct{})}
	l := &loop{fs: fw, targets: tg, opts: opts, changes: w.changes, handled: handled,
		pending: make(map[string]bool)}
	go func() {
		l.run(ctx)
		w.err = fw.Close()
		close(w.changes)
		close(w.done)
	}()
	return w, nil
}

// Changes delivers one Change per debounced burst. It holds at most one;
// while the consumer has not taken it, later bursts merge into it.
func (w *Watcher) Changes() <-chan Change { return w.changes }

// Close stops watching, drops a burst still being debounced and closes
// Changes. It is safe to call more than once.
func (w *Watcher) Close() error {
	w.cancel()
	<-w.done
	return w.err
}

// loop is the single goroutine that owns the debounce state.
type loop struct {
	fs      *fsnotify.Watcher
	targets targets
	opts    Options
	changes chan Change
	handled func(fsnotify.Event)
	pending map[string]bool // paths with events since the last Change
	timer   domain.Timer    // the running quiet period; nil when idle
}

func (l *loop) run(ctx context.Context) {
	defer func() {
		if l.timer != nil {
			l.timer.Stop()
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-l.fs.Events:
			if !ok {
				return
			}
			l.event(ev)
			if l.handled != nil {
				l.handled(ev)
			}
		case err, ok := <-l.fs.Errors:
			if !ok {
				return
			}
			l.error(err)
		case <-timerC(l.timer):
			l.timer = nil
			l.flush()
		}
	}
}

func (l *loop) event(ev fsnotify.Event) {
	if ev.Op&(fsnotify.Remove|fsnotify.Rename) != 0 && l.targets.isDir(ev.Name) {
		l.opts.Log.Warn("settings directory went away; its files are no longer watched", "dir", ev.Name)
		return
	}
	path, ok := l.targets.byName[ev.Name]
	if !ok || ev.Op&counted == 0 {
		return
	}
	l.pending[path] = true
	l.restart()
}

// error handles a watcher error. An overflow means events were lost, so
// every file may have changed and is reported as such.
func (l *loop) error(err error) {
	if !errors.Is(err, fsnotify.ErrEventOverflow) {
		l.opts.Log.Error("watch settings files", "error", err)
		return
	}
	l.opts.Log.Warn("settings watch lost events; reporting every file", "error", err)
	for _, p := range l.targets.paths {
		l.pending[p] = true
	}
	l.restart()
}

// restart begins the quiet period again, so a Change follows the last
// event of a burst by Options.Debounce.
func (l *loop) restart() {
	if l.timer != nil {
		l.timer.Stop()
	}
	l.timer = l.opts.Clock.NewTimer(l.opts.Debounce)
}

// timerC returns t's channel, or nil (never ready) when no timer runs.
func timerC(t domain.Timer) <-chan time.Time {
	if t == nil {
		return nil
	}
	return t.C()
}
