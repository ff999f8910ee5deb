package handlers

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/a-h/templ"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

// Bounds of the shared render cache: the current generation is retired
// when it holds this many entries or bytes, and entries of the retired one
// are found until the next retirement. A working set is a few fragments
// per transition and language, or one fleet's drawer headers when pages
// reconnect, so these keep sharing high and memory at a few megabytes.
const (
	renderCacheEntries = 1024
	renderCacheBytes   = 4 << 20
)

// fragmentKind names what a cached event holds.
type fragmentKind uint8

const (
	fragmentRow            fragmentKind = iota + 1 // a server's row
	fragmentRowWithSummary                         // a server's row after the header summary
	fragmentDrawer                                 // a server's drawer header and actions
)

// renderKey is every input a page event's bytes depend on. Pages of one
// pageEvents share the rest (links, the probe source), and a page's
// filters only decide which events it is sent, never how they look.
type renderKey struct {
	kind    fragmentKind
	server  string
	version uint64 // the hub's version of the snapshot rendered
	lang    string // the localizer's language
	preset  string
	// second is the wall-clock second of the render for fragments with
	// relative times ("2 seconds ago"), which the page's script rewrites
	// every second anyway; 0 for the others. A page that asks a second
	// later renders afresh.
	second int64
	// summary is what the header summary counts, for a row sent with it.
	summary views.GroupCounts
}

// fragmentLook is what a page's own choices add to a key.
type fragmentLook struct {
	lang, preset string
}

// key returns the key of a fragment of st as this page would render it.
func (l fragmentLook) key(kind fragmentKind, st domain.Status) renderKey {
	return renderKey{kind: kind, server: st.ServerName, version: st.Version, lang: l.lang, preset: l.preset}
}

// renderEntry is one event, rendered once by whichever page asked first;
// the others wait on once and share the bytes, which are never changed.
type renderEntry struct {
	once  sync.Once
	event []byte
	err   error
	size  int // len(event) once rendered; guarded by the cache's mu
}

// pageRenderCache renders each page event once for every page that sends
// it: the first page to need a fragment of a snapshot, in a language,
// renders and frames it, and the others write the same bytes. Its zero
// value is ready to use.
type pageRenderCache struct {
	renders atomic.Int64 // how many events were rendered, for tests

	mu      sync.Mutex // guards the fields below
	current map[renderKey]*renderEntry
	retired map[renderKey]*renderEntry
	bytes   int // of current's rendered events
}

// event returns the framed event for key, calling render on a miss for
// the event's name and content. It renders with ctx's values but not its
// cancellation: the page that renders may leave while others wait for the
// bytes.
func (c *pageRenderCache) event(ctx context.Context, key renderKey, render func() (string, templ.Component)) ([]byte, error) {
	e := c.entry(key)
	e.once.Do(func() {
		c.renders.Add(1)
		var html bytes.Buffer
		event, content := render()
		if err := content.Render(context.WithoutCancel(ctx), &html); err != nil {
			e.err = fmt.Errorf("render page event: %w", err)
			return
		}
		e.event = appendSSE(make([]byte, 0, html.Len()+len(event)+64), event, "", html.Bytes())
		c.mu.Lock()
		e.size = len(e.event)
		c.bytes += e.size
		c.mu.Unlock()
	})
	if e.err != nil {
		c.forget(key, e)
		return nil, e.err
	}
	return e.event, nil
}

// entry finds key's entry, in the current generation or the retired one
// (moving it back), or makes an empty one.
func (c *pageRenderCache) entry(key renderKey) *renderEntry {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.current[key]; ok {
		return e
	}
	if c.current == nil || len(c.current) >= renderCacheEntries || c.bytes >= renderCacheBytes {
		c.retired, c.current, c.bytes = c.current, map[renderKey]*renderEntry{}, 0
	}
	e, ok := c.retired[key]
	if ok {
		delete(c.retired, key)
		c.bytes += e.size
	} else {
		e = &renderEntry{}
	}
	c.current[key] = e
	return e
}

// forget drops an entry whose render failed, so the next page tries again.
func (c *pageRenderCache) forget(key renderKey, e *renderEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.current[key] == e {
		delete(c.current, key)
	}
}
