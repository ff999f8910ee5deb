// Package demoserver is Switchboard's built-in MCP server. It exists so that a
// fresh install has something real to supervise and so that tests have a peer
// that returns every kind of MCP result content: text, image, audio, resource
// links, embedded resources, structured content, tool errors and progress,
// and that asks its client things while a tool runs (elicitation, sampling,
// roots).
package demoserver

import (
	"log/slog"
	"time"

	"github.com/mark3labs/mcp-go/server"
)

// Version is reported at initialize so that clients can show which demo build
// they are talking to.
const Version = "0.1.0"

// DefaultName is the server name reported at initialize when Options.Name is empty.
const DefaultName = "switchboard-demo"

// Options configures New. Every field is optional so that tests can inject only
// what they need to control.
type Options struct {
	// Name is the server name reported at initialize.
	Name string
	// Version is the server version reported at initialize.
	Version string
	// Clock stamps reports, weather observations and resource modification
	// times; tests pass a fixed clock to get stable results.
	Clock func() time.Time
	// Log, when set, receives one line per request and tool call from mcp-go,
	// which is what a supervisor shows as the server's recent stderr.
	Log *slog.Logger
}

// withDefaults fills in the zero fields so handlers never test for nil.
func (o Options) withDefaults() Options {
	if o.Name == "" {
		o.Name = DefaultName
	}
	if o.Version == "" {
		o.Version = Version
	}
	if o.Clock == nil {
		o.Clock = time.Now
	}
	return o
}

// demo holds the state shared by the handlers of one server instance, so that
// two servers in one process never see each other's notes.
type demo struct {
	clock func() time.Time
	media media
	notes *noteStore
}

// New builds the MCP server with every demo tool, resource, resource template
// and prompt registered and the tools, resources (with listChanged), prompts
// and logging capabilities enabled.
func New(opts Options) *server.MCPServer {
	opts = opts.withDefaults()
	serverOpts := []server.ServerOption{
		server.WithToolCapabilities(true),
		server.WithResourceCapabilities(false, true),
		server.WithPromptCapabilities(true),
		server.WithLogging(),
		server.WithRecovery(),
		server.WithOutputSchemaValidation(),
		server.WithInstructions("Switchboard's demo server: every tool returns a different kind of MCP content."),
	}
	if opts.Log != nil {
		serverOpts = append(serverOpts, server.WithLogger(opts.Log))
	}
	s := server.NewMCPServer(opts.Name, opts.Version, serverOpts...)

	d := &demo{clock: opts.Clock, media: newMedia(), notes: newNoteStore()}
	d.addContentTools(s)
	d.addAnnotatedTools(s)
	d.addProgressTools(s)
	addDefaultsTool(s)
	addAskTools(s)
	addLogTools(s)
	d.addResources(s)
	addPrompts(s)
	return s
}
