package fswatch

// Change names the watched files that had events in one debounced burst, as
// given in Options.Paths and in that order. It means "may have changed":
// the consumer decides whether the content did.
type Change struct {
	Paths []string
}

// pendingPaths returns the pending paths in Options order.
func (l *loop) pendingPaths() []string {
	var out []string
	for _, p := range l.targets.paths {
		if l.pending[p] {
			out = append(out, p)
		}
	}
	return out
}

// flush hands the pending paths to the consumer without ever blocking, so
// a slow consumer cannot stall the fsnotify loop and overflow the kernel
// queue. The channel holds one Change; if the consumer has not taken it,
// that Change absorbs the new paths, since a consumer that re-reads every
// named file needs only the union.
func (l *loop) flush() {
	for {
		select {
		case l.changes <- Change{Paths: l.pendingPaths()}:
			clear(l.pending)
			return
		default:
		}
		// Only this loop sends, so once the old Change is taken out the
		// next send succeeds; if the consumer took it first, so much the
		// better.
		select {
		case old := <-l.changes:
			for _, p := range old.Paths {
				l.pending[p] = true
			}
		default:
		}
	}
}
