package domain

import "sort"

// CatalogueServer is what the catalogue is built from for one server: its
// newest status and the lists it last loaded.
type CatalogueServer struct {
	Status Status
	Caps   Capabilities
}

// ExposedTool is one tool as the aggregated gateway lists it.
type ExposedTool struct {
	Name   string // the name clients see: "<server>__<tool>", made safe and short
	Server string
	Tool   Tool // as the server listed it; Tool.Name is the original name
}

// ExposedPrompt is one prompt as the aggregated gateway lists it.
type ExposedPrompt struct {
	Name   string
	Server string
	Prompt Prompt
}

// ExposedResource is one resource; its URI passes through unchanged.
type ExposedResource struct {
	Server   string
	Resource Resource
}

// ExposedTemplate is one resource template; it passes through unchanged.
type ExposedTemplate struct {
	Server   string
	Template ResourceTemplate
}

// ResourceClash is a URI (or URI template) more than one server lists.
// Servers is sorted; the first one serves it, the others are hidden for it.
type ResourceClash struct {
	URI     string
	Servers []string
}

// Catalogue is the union of the exposed servers' tools, prompts, resources
// and templates under names every client accepts, with the table that
// routes a client's name back to a server and its original name. It is
// immutable once built, so readers share it without locking.
type Catalogue struct {
	Servers   []string // the exposed servers, sorted
	Tools     []ExposedTool
	Prompts   []ExposedPrompt
	Resources []ExposedResource
	Templates []ExposedTemplate
	// Clashes are the URIs and templates listed by several servers.
	Clashes []ResourceClash

	tools       map[string]int
	bareTools   map[string]int // original name -> index, or severalServers
	prompts     map[string]int
	barePrompts map[string]int
	resources   map[string]string
	templates   map[string]string
}

// Exposable reports whether a server's lists belong on the gateway: it is
// connected and allowed (not disabled, blocked or failing), or it is only
// reconnecting after having been connected (wasExposed, or a restart that
// kept its connection time), so a brief reconnect never makes its tools
// vanish from clients that ignore list_changed. A server that failed and
// waits for a scheduled retry counts as reconnecting too, as long as it was
// exposed and the failure is one that is retried; a call to it waits for
// the reconnect (Invocations.Call) rather than finding the tool gone.
func Exposable(st Status, wasExposed bool) bool {
	if st.BlockedReason != BlockedNone || st.Phase == PhaseDisposed || st.DisabledReason != DisabledNone {
		return false
	}
	if st.Phase == PhaseWaiting {
		return wasExposed && st.Retryable
	}
	switch st.State {
	case StateConnected:
		return true
	case StateConnecting:
		return wasExposed || !st.ConnectedAt.IsZero()
	}
	return false
}

// NewCatalogue builds the catalogue of the given servers; the caller has
// already chosen which are exposed (Exposable). The result does not depend
// on the order of servers.
func NewCatalogue(servers []CatalogueServer) *Catalogue {
	servers = append([]CatalogueServer(nil), servers...)
	sort.Slice(servers, func(i, j int) bool { return servers[i].Status.ServerName < servers[j].Status.ServerName })
	c := &Catalogue{resources: map[string]string{}, templates: map[string]string{}}
	// Sizes are known up front: a gateway may list thousands of tools, and
	// growing these as they fill costs more than the rest of the build.
	var nTools, nPrompts int
	for _, s := range servers {
		nTools += len(s.Caps.Tools)
		nPrompts += len(s.Caps.Prompts)
	}
	c.tools, c.bareTools = make(map[string]int, nTools), make(map[string]int, nTools)
	c.prompts, c.barePrompts = make(map[string]int, nPrompts), make(map[string]int, nPrompts)
	// Each entry keeps a pointer to the tool or prompt it names, so they
	// are copied once, into the catalogue.
	toolEntries, promptEntries := make([]namedEntry, 0, nTools), make([]namedEntry, 0, nPrompts)
	toolOf, promptOf := make([]*Tool, 0, nTools), make([]*Prompt, 0, nPrompts)
	// The names one server listed so far (servers are sorted, so a name
	// given twice is seen as one server).
	seenTools, seenPrompts := map[string]bool{}, map[string]bool{}
	resourceServers := map[string][]string{}
	templateServers := map[string][]string{}
	for k, s := range servers {
		name := s.Status.ServerName
		c.Servers = append(c.Servers, name)
		if k == 0 || servers[k-1].Status.ServerName != name {
			clear(seenTools)
			clear(seenPrompts)
		}
		for i := range s.Caps.Tools {
			t := &s.Caps.Tools[i]
			if seenTools[t.Name] {
				continue // a server listing one name twice: the first one counts
			}
			seenTools[t.Name] = true
			toolEntries = append(toolEntries, namedEntry{server: name, original: t.Name, of: len(toolOf)})
			toolOf = append(toolOf, t)
		}
		for i := range s.Caps.Prompts {
			p := &s.Caps.Prompts[i]
			if seenPrompts[p.Name] {
				continue
			}
			seenPrompts[p.Name] = true
			promptEntries = append(promptEntries, namedEntry{server: name, original: p.Name, of: len(promptOf)})
			promptOf = append(promptOf, p)
		}
		for _, r := range s.Caps.Resources {
			if owners := resourceServers[r.URI]; len(owners) > 0 {
				if owners[len(owners)-1] != name {
					resourceServers[r.URI] = append(owners, name)
				}
				continue
			}
			resourceServers[r.URI] = []string{name}
			c.resources[r.URI] = name
			c.Resources = append(c.Resources, ExposedResource{Server: name, Resource: r})
		}
		for _, t := range s.Caps.ResourceTemplates {
			if owners := templateServers[t.URITemplate]; len(owners) > 0 {
				if owners[len(owners)-1] != name {
					templateServers[t.URITemplate] = append(owners, name)
				}
				continue
			}
			templateServers[t.URITemplate] = []string{name}
			c.templates[t.URITemplate] = name
			c.Templates = append(c.Templates, ExposedTemplate{Server: name, Template: t})
		}
	}
	assignExposedNames(toolEntries)
	if len(toolEntries) > 0 {
		c.Tools = make([]ExposedTool, 0, len(toolEntries))
	}
	for i, e := range toolEntries {
		c.Tools = append(c.Tools, ExposedTool{Name: e.exposed, Server: e.server, Tool: *toolOf[e.of]})
		c.tools[e.exposed] = i
		noteBare(c.bareTools, e.original, i)
	}
	assignExposedNames(promptEntries)
	if len(promptEntries) > 0 {
		c.Prompts = make([]ExposedPrompt, 0, len(promptEntries))
	}
	for i, e := range promptEntries {
		c.Prompts = append(c.Prompts, ExposedPrompt{Name: e.exposed, Server: e.server, Prompt: *promptOf[e.of]})
		c.prompts[e.exposed] = i
		noteBare(c.barePrompts, e.original, i)
	}
	c.Clashes = clashes(resourceServers, templateServers)
	return c
}

// severalServers marks an original name more than one exposed server
// lists: it routes to none of them.
const severalServers = -1

// noteBare records that entry i has the original name; a name seen before
// becomes severalServers. One int per name rather than a list of indexes
// keeps a gateway's thousands of names free of a slice each.
func noteBare(bare map[string]int, name string, i int) {
	if _, seen := bare[name]; seen {
		bare[name] = severalServers
		return
	}
	bare[name] = i
}

func clashes(sets ...map[string][]string) []ResourceClash {
	var out []ResourceClash
	for _, set := range sets {
		for uri, owners := range set {
			if len(owners) > 1 {
				out = append(out, ResourceClash{URI: uri, Servers: owners})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].URI < out[j].URI })
	return out
}

// Tool routes a client's tool name: an exposed name, or an original name
// only one exposed server lists (MCP Apps call tools by their own names).
func (c *Catalogue) Tool(name string) (ExposedTool, bool) {
	if i, ok := c.tools[name]; ok {
		return c.Tools[i], true
	}
	if i, ok := c.bareTools[name]; ok && i != severalServers {
		return c.Tools[i], true
	}
	return ExposedTool{}, false
}

// Prompt routes a client's prompt name like Tool.
func (c *Catalogue) Prompt(name string) (ExposedPrompt, bool) {
	if i, ok := c.prompts[name]; ok {
		return c.Prompts[i], true
	}
	if i, ok := c.barePrompts[name]; ok && i != severalServers {
		return c.Prompts[i], true
	}
	return ExposedPrompt{}, false
}

// ResourceServer returns the server that serves a listed URI.
func (c *Catalogue) ResourceServer(uri string) (string, bool) {
	s, ok := c.resources[uri]
	return s, ok
}

// TemplateServer returns the server that serves a listed URI template.
func (c *Catalogue) TemplateServer(uriTemplate string) (string, bool) {
	s, ok := c.templates[uriTemplate]
	return s, ok
}

// Exposes reports whether server is on the gateway.
func (c *Catalogue) Exposes(server string) bool {
	i := sort.SearchStrings(c.Servers, server)
	return i < len(c.Servers) && c.Servers[i] == server
}
