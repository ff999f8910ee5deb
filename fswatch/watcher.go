package fswatch

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
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
	ctx, cancel := context.WithCancel(ctx)
	w := &Watcher{changes: make(chan Change, 1), cancel: cancel, done: make(chan struct{})}
	l := &loop{fs: fw, targets: tg, opts: opts, changes: w.changes, handled: handled,
		pending: make(map[string]bool), watched: make(map[string]bool), standIn: make(map[string]string)}
	if _, _, err := l.place(); err != nil {
		cancel()
		_ = fw.Close()
		return nil, err
	}
	for _, d := range tg.dirs {
		if at := l.standIn[d]; at != d {
			opts.Log.Info("settings directory does not exist yet; watching for it", "dir", d, "watching", at)
		}
	}
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
	// watched are the directories fsnotify watches; standIn maps each
	// settings directory to the one watched for it: itself, or while it
	// is missing its nearest existing ancestor.
	watched map[string]bool
	standIn map[string]string
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
	if ev.Op&(fsnotify.Remove|fsnotify.Rename) != 0 && l.watched[ev.Name] {
		// The watch went with the directory (or follows it under its new
		// name); one made again under the old name, perhaps already,
		// needs a watch of its own.
		_ = l.fs.Remove(ev.Name)
		delete(l.watched, ev.Name)
	}
	if ev.Op&(fsnotify.Create|fsnotify.Remove|fsnotify.Rename) != 0 && l.targets.onTheWay(ev.Name) {
		l.replace()
	}
	path, ok := l.targets.byName[ev.Name]
	if !ok || ev.Op&counted == 0 {
		return
	}
	l.pending[path] = true
	l.restart()
}

// replace moves the watches after a settings directory, or one of its
// ancestors, appeared or went away. The files of a directory that just
// appeared may have been written before its watch was added, so those
// that exist are reported as changed.
func (l *loop) replace() {
	arrived, departed, err := l.place()
	if err != nil {
		l.opts.Log.Warn("watch settings directories", "error", err)
	}
	for _, d := range departed {
		l.opts.Log.Warn("settings directory went away; watching for it to come back", "dir", d, "watching", l.standIn[d])
	}
	for _, d := range arrived {
		l.opts.Log.Info("settings directory appeared; watching it", "dir", d)
		for _, p := range l.targets.paths {
			abs, _ := filepath.Abs(p)
			if filepath.Dir(abs) != d {
				continue
			}
			if _, err := os.Stat(abs); err == nil {
				l.pending[p] = true
			}
		}
	}
	if len(l.pending) > 0 {
		l.restart()
	}
}

// place watches, for every settings directory, the directory itself or,
// while it is missing, its nearest existing ancestor, and drops watches no
// settings directory needs any more. It returns the settings directories
// now watched themselves that were not before, and those no longer watched
// themselves that were.
func (l *loop) place() (arrived, departed []string, err error) {
	need := make(map[string]bool, len(l.targets.dirs))
	var errs []error
	for _, d := range l.targets.dirs {
		at, err := l.add(d)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		need[at] = true
		before, known := l.standIn[d]
		switch {
		case known && before != d && at == d:
			arrived = append(arrived, d)
		case known && before == d && at != d:
			departed = append(departed, d)
		}
		l.standIn[d] = at
	}
	for dir := range l.watched {
		if !need[dir] {
			_ = l.fs.Remove(dir) // fails when the directory is gone, which removed the watch already
			delete(l.watched, dir)
		}
	}
	return arrived, departed, errors.Join(errs...)
}

// add watches d's nearest existing directory and returns it. A directory
// removed between the look and the watch is looked for again, and so is
// one created under it before its watch was in place (`mkdir -p a/b`),
// whose creation no watch saw.
func (l *loop) add(d string) (string, error) {
	var err error
	for range 16 {
		at := nearestExisting(d)
		if !l.watched[at] {
			if err = l.fs.Add(at); err != nil {
				if !errors.Is(err, fs.ErrNotExist) {
					break
				}
				continue
			}
			l.watched[at] = true
		}
		if nearestExisting(d) == at {
			return at, nil
		}
	}
	if err == nil {
		err = errors.New("the directories on the way keep changing")
	}
	return "", fmt.Errorf("watch directory for %s: %w", d, err)
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
