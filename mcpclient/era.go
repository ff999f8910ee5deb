package mcpclient

import (
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
)

// MCP has two protocol eras: the initialize handshake with a session
// (2025-11-25 and before) and the stateless revision 2026-07-28, where every
// request carries the client's version, capabilities and identity in _meta.
// A dual-era client probes for the newer one and falls back, and remembers
// what it found so that reconnecting costs no probe.

// eras remembers, per server configuration, the protocol version its server
// last connected with. The key is the configuration's fingerprint, so an
// edited command or URL is probed afresh.
type eras struct {
	mu   sync.Mutex // guards seen
	seen map[string]string
}

// remembered returns the version cfg's server last connected with, or ""
// when it must be probed.
func (e *eras) remembered(key string) string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.seen[key]
}

// remember keeps version for key; an empty version forgets it.
func (e *eras) remember(key, version string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if version == "" {
		delete(e.seen, key)
		return
	}
	if e.seen == nil {
		e.seen = make(map[string]string)
	}
	e.seen[key] = version
}

// forget drops what was remembered for key, so the next connect probes.
func (e *eras) forget(key string) { e.remember(key, "") }

// pinnedLegacy reports whether Options.ProtocolVersion asks for one
// revision of the handshake era only, which skips every probe.
func (o Options) pinnedLegacy() bool {
	return o.ProtocolVersion != "" && !mcp.IsModernProtocol(o.ProtocolVersion)
}

// preferredVersion is the version a connect to the server behind key asks
// for first: what it connected with last time, else Options.ProtocolVersion
// (2026-07-28 unless the options pin a handshake revision, which wins over
// anything remembered).
func (c *Connector) preferredVersion(key string) string {
	if !c.opts.pinnedLegacy() {
		if v := c.eras.remembered(key); v != "" {
			return v
		}
	}
	return c.opts.ProtocolVersion
}
