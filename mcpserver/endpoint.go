package mcpserver

import (
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-mcp/switchboard/domain"
)

// heartbeat keeps a client's idle GET stream alive through proxies.
const heartbeat = 25 * time.Second

// endpoint is one MCP server clients connect to: the aggregated one
// (server == "") or one server's, under its own names.
type endpoint struct {
	g       *Gateway
	server  string
	mcp     *server.MCPServer
	http    *server.StreamableHTTPServer
	handler http.Handler
	cat     atomic.Pointer[domain.Catalogue] // the aggregated endpoint's routing table
	logs    listeners                        // sessions that hear servers' log messages
	subs    subscriptions                    // the resources sessions subscribed to
	listens listenStreams                    // 2026-07-28 listen streams holding resources
	held    *heldCalls                       // calls a 2026-07-28 client may resume
	sealer  *sealer                          // seals those clients' requestState
	// active is set by the endpoint's first request. Until then sync
	// keeps only the catalogue (the drawer shows names from it): the
	// lists mcp-go serves, with every tool's schema encoded, would hold
	// megabytes for 200 servers that no client may ever ask for.
	active atomic.Bool

	mu sync.Mutex // guards next and the fingerprints below
	// next is closed at the next sync, waking calls that wait for a name
	// to be listed (see awaitListed).
	next chan struct{}
	// waiting counts the calls awaitListed holds, for tests to see.
	waiting atomic.Int32
	// What each list was last set to, by exposed name (or URI): mcp-go's
	// Set* methods notify clients even when nothing changed, so they are
	// called only when these differ.
	prompts, resources, templates map[string]string
	// tools is the tool list mcp-go was last given, encoded (see
	// tool_list.go); nil until the first sync.
	tools atomic.Pointer[toolList]
	// listedFromCache counts tools/list answers that used tools' cached
	// encoding, for tests to see.
	listedFromCache atomic.Int64
}

func newEndpoint(g *Gateway, name string) *endpoint {
	ep := &endpoint{g: g, server: name, held: newHeldCalls(g.opts.Clock)}
	ep.cat.Store(domain.NewCatalogue(nil))
	hooks := &server.Hooks{}
	path := "/mcp"
	if name != "" {
		path += "/" + name
	}
	sealer, err := newSealer(g.opts.StateKey, path)
	if err != nil {
		// States sealed with a key of this process's own still resume the
		// calls of this process, which are the only ones there are.
		g.opts.Log.Error("gateway cannot use the requestState key; using one for this run only", "error", err)
		sealer, err = newSealer(nil, path)
		if err != nil {
			panic(err) // crypto/rand does not fail on supported systems
		}
	}
	ep.sealer = sealer
	g.clients.hook(g, hooks, path)
	addReadMetaHooks(hooks)
	ep.addLogging(hooks)
	ep.addSubscriptions(hooks)
	ep.addToolListing(hooks)
	// A call to a name nobody lists yet waits while servers make their
	// first connection. A client may also call a tool by its own name when
	// only one server lists it; mcp-go looks names up before any handler
	// runs, so on /mcp the name is rewritten to the exposed one first.
	hooks.AddBeforeCallTool(func(ctx context.Context, _ any, req *mcp.CallToolRequest) {
		ep.awaitListed(ctx, func(c *domain.Catalogue) bool { _, ok := c.Tool(req.Params.Name); return ok })
		if t, ok := ep.cat.Load().Tool(req.Params.Name); ok && name == "" {
			req.Params.Name = t.Name
		}
	})
	hooks.AddBeforeGetPrompt(func(ctx context.Context, _ any, req *mcp.GetPromptRequest) {
		ep.awaitListed(ctx, func(c *domain.Catalogue) bool { _, ok := c.Prompt(req.Params.Name); return ok })
		if p, ok := ep.cat.Load().Prompt(req.Params.Name); ok && name == "" {
			req.Params.Name = p.Name
		}
	})
	title := "Switchboard"
	if name != "" {
		title = "Switchboard: " + name
	}
	ep.mcp = server.NewMCPServer("switchboard", g.opts.Version,
		server.WithTitle(title),
		server.WithToolCapabilities(true),
		server.WithPromptCapabilities(true),
		server.WithResourceCapabilities(true, true),
		server.WithCompletions(),
		server.WithLogging(),
		server.WithPromptCompletionProvider(completer{ep}),
		server.WithResourceCompletionProvider(completer{ep}),
		server.WithHooks(hooks),
		server.WithRecovery(),
	)
	ep.http = server.NewStreamableHTTPServer(ep.mcp,
		server.WithHeartbeatInterval(heartbeat),
		// The HTTP layer in front checks Host (against the configured
		// addresses, not only loopback names) and Origin on every request.
		server.WithDisableLocalhostProtection(true),
		server.WithHTTPContextFunc(ep.listingContext))
	ep.handler = g.untilClosed(ep.activating(guardCancel(ep.guardSubscribe(forwardRaw(keepExtras(cachedToolLists(ep.http)))))))
	return ep
}

// sync sets the endpoint's lists from the exposed servers, telling
// clients only about lists that changed.
func (ep *endpoint) sync(inputs []domain.CatalogueServer) {
	if ep.server != "" {
		var mine []domain.CatalogueServer
		for _, in := range inputs {
			if in.Status.ServerName == ep.server {
				mine = append(mine, in)
			}
		}
		inputs = mine
	}
	if !ep.active.Load() && ep.server != "" {
		// A server's own endpoint is read only by its requests, which
		// activate it first; until a client comes, it keeps no copy of
		// the server's lists (200 servers: megabytes nobody reads).
		ep.mu.Lock()
		defer ep.mu.Unlock()
		ep.announce()
		return
	}
	cat := domain.NewCatalogue(inputs)
	if !ep.active.Load() {
		ep.mu.Lock()
		defer ep.mu.Unlock()
		ep.cat.Store(cat)
		ep.announce()
		return
	}
	tools := ep.buildToolList(cat, ep.tools.Load())
	var prompts []server.ServerPrompt
	var resources []server.ServerResource
	var templates []server.ServerResourceTemplate
	promptPrints, resourcePrints, templatePrints := map[string]string{}, map[string]string{}, map[string]string{}
	for _, p := range cat.Prompts {
		name := p.Name
		if ep.server != "" {
			name = p.Prompt.Name
		}
		mp := exposePrompt(name, p.Prompt)
		promptPrints[name] = fingerprint(p.Server, p.Prompt.Name, mp)
		prompts = append(prompts, server.ServerPrompt{Prompt: mp, Handler: ep.getPrompt(p.Server, p.Prompt.Name)})
	}
	for _, r := range cat.Resources {
		mr := exposeResource(r.Resource)
		resourcePrints[r.Resource.URI] = fingerprint(r.Server, "", mr)
		resources = append(resources, server.ServerResource{Resource: mr, Handler: ep.readResource(r.Server)})
	}
	for _, t := range cat.Templates {
		mt, ok := exposeTemplate(t.Template)
		if !ok {
			ep.g.opts.Log.Warn("gateway leaves a resource template out", "server", t.Server, "template", t.Template.URITemplate)
			continue
		}
		templatePrints[t.Template.URITemplate] = fingerprint(t.Server, "", mt)
		templates = append(templates, server.ServerResourceTemplate{Template: mt, Handler: server.ResourceTemplateHandlerFunc(ep.readResource(t.Server))})
	}

	ep.mu.Lock()
	defer ep.mu.Unlock()
	ep.cat.Store(cat)
	defer ep.announce() // once mcp-go has the lists too
	if !tools.same(ep.tools.Load()) {
		ep.mcp.SetTools(ep.serverTools(tools)...)
	}
	ep.tools.Store(tools)
	if ep.prompts == nil || !maps.Equal(ep.prompts, promptPrints) {
		ep.mcp.SetPrompts(prompts...)
		ep.prompts = promptPrints
	}
	if ep.resources == nil || !maps.Equal(ep.resources, resourcePrints) {
		ep.mcp.SetResources(resources...)
		ep.resources = resourcePrints
	}
	if ep.templates == nil || !maps.Equal(ep.templates, templatePrints) {
		ep.mcp.SetResourceTemplates(templates...)
		ep.templates = templatePrints
	}
}

// fingerprint is what a client sees of one entry plus where it routes,
// so a change of either counts as a change of the list.
func fingerprint(server, original string, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		b = []byte(err.Error())
	}
	return server + "\x00" + original + "\x00" + string(b)
}
