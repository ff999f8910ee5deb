package domain

import (
	"context"
	"encoding/json"
	"io"
)

// Connector opens sessions with MCP servers. The mcpclient adapter
// implements it over mark3labs/mcp-go; the supervisor only sees this.
type Connector interface {
	// Connect starts or dials the server and completes the handshake. The
	// ctx bounds only the handshake: the session outlives it. A stdio
	// server's stderr is copied to stderr line by line. Failures are
	// *ConnError values so the supervisor can decide whether to retry.
	Connect(ctx context.Context, cfg ServerConfig, stderr io.Writer) (Session, error)
}

// Session is one live connection. Every method but Close may be called
// concurrently with the others.
type Session interface {
	// ProtocolVersion is the negotiated MCP revision, such as "2025-11-25".
	ProtocolVersion() string
	// Probe checks liveness with the cheapest request the revision allows.
	Probe(ctx context.Context) error
	// List loads every page of one list.
	List(ctx context.Context, kind ListKind) (Capabilities, error)
	// Changes delivers list_changed notifications. It never blocks the
	// connection's read loop; bursts may be merged.
	Changes() <-chan ListKind
	// Done is closed when the connection is known to be lost (the process
	// exited, the stream ended); Err then says why. Err returns a new value
	// on every call, so the caller may annotate it (the supervisor adds the
	// stderr tail), and after Close it reports the session as closed unless
	// the connection had already failed.
	Done() <-chan struct{}
	Err() error
	// CallTool sends tools/call with a progress token, reports every
	// progress notification for it, and returns the CallToolResult as
	// JSON. Ending ctx cancels the call, notifying the server where the
	// transport allows. Nil args are sent as an empty object.
	CallTool(ctx context.Context, tool string, args json.RawMessage, progress func(Progress)) (json.RawMessage, error)
	// ReadResource sends resources/read and returns its result as JSON.
	ReadResource(ctx context.Context, uri string) (json.RawMessage, error)
	// GetPrompt sends prompts/get with the prompt's arguments (strings, as
	// MCP has them) and returns its result as JSON.
	GetPrompt(ctx context.Context, prompt string, args map[string]string) (json.RawMessage, error)
	// Complete sends completion/complete and returns its result as JSON.
	Complete(ctx context.Context, req CompleteRequest) (json.RawMessage, error)
	// Close disconnects gracefully and, for stdio, ends the whole process
	// group. It is safe to call more than once.
	Close() error
}

// LoadAll fills every list of caps from s.
func LoadAll(ctx context.Context, s Session) (Capabilities, error) {
	var all Capabilities
	for _, k := range []ListKind{ListTools, ListResources, ListResourceTemplates, ListPrompts} {
		c, err := s.List(ctx, k)
		if err != nil {
			return Capabilities{}, err
		}
		all = all.with(k, c)
	}
	return all, nil
}

// with returns c with the list of kind k taken from from.
func (c Capabilities) with(k ListKind, from Capabilities) Capabilities {
	switch k {
	case ListTools:
		c.Tools = from.Tools
	case ListResources:
		c.Resources = from.Resources
	case ListResourceTemplates:
		c.ResourceTemplates = from.ResourceTemplates
	case ListPrompts:
		c.Prompts = from.Prompts
	}
	return c
}
