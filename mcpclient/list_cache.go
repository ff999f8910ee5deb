package mcpclient

import (
	"encoding/json"
	"sync"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// listCache keeps the lists a 2026-07-28 server said may be reused for a
// while (ttlMs on the result), so that listing again within that time
// costs no request. A change notification for a list, or a reopened
// listen stream, drops it at once.
type listCache struct {
	mu      sync.Mutex // guards entries
	entries map[domain.ListKind]cachedList
}

type cachedList struct {
	caps  domain.Capabilities
	until time.Time
}

// get returns kind's list when it is still fresh at now.
func (c *listCache) get(kind domain.ListKind, now time.Time) (domain.Capabilities, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[kind]
	if !ok || !now.Before(e.until) {
		return domain.Capabilities{}, false
	}
	return e.caps, true
}

// put keeps caps for ttl from now; a ttl of zero or less keeps nothing.
func (c *listCache) put(kind domain.ListKind, caps domain.Capabilities, now time.Time, ttl time.Duration) {
	if ttl <= 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil {
		c.entries = make(map[domain.ListKind]cachedList)
	}
	c.entries[kind] = cachedList{caps: caps, until: now.Add(ttl)}
}

// drop forgets kind's list; resources also take their templates along,
// since one notification announces both.
func (c *listCache) drop(kind domain.ListKind) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.entries, kind)
	if kind == domain.ListResources {
		delete(c.entries, domain.ListResourceTemplates)
	}
}

// maxListTTL bounds how long a list result is reused, whatever ttlMs says:
// a change notification lost on a broken stream is forgotten within it.
const maxListTTL = time.Hour

// pagesTTL is the shortest ttlMs of a list's pages: the whole list may be
// reused only as long as every page may. A page without one makes it zero.
func pagesTTL(pages []json.RawMessage) time.Duration {
	var ttl time.Duration
	for i, p := range pages {
		var hint struct {
			TTLMs *int64 `json:"ttlMs"`
		}
		if json.Unmarshal(p, &hint) != nil || hint.TTLMs == nil || *hint.TTLMs <= 0 {
			return 0
		}
		// A server cannot pin its lists for longer than maxListTTL (nor
		// overflow the duration with a huge ttlMs).
		d := time.Duration(min(*hint.TTLMs, maxListTTL.Milliseconds())) * time.Millisecond
		if i == 0 || d < ttl {
			ttl = d
		}
	}
	return ttl
}
