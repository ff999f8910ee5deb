package mcpserver

import (
	"bytes"
	"cmp"
	"encoding/json"
	"slices"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-mcp/switchboard/domain"
)

// A gateway lists thousands of tools, and mcp-go encodes every mcp.Tool
// anew on each tools/list (through a map, re-validating each raw schema),
// which costs tens of milliseconds per list. So each endpoint keeps its
// tools encoded: a toolList holds every exposed tool with its bytes (the
// server's own object under the exposed name, see listedJSON), built when
// a sync finds the tool new or changed and reused otherwise.
//
// mcp-go still answers every tools/list itself (sessions, hooks, cursors,
// both eras' envelopes, JSON or SSE); only the tools array is swapped. An
// AfterListTools hook checks that the tools mcp-go chose are exactly a
// run of the cached list (same entries, not only the same names), puts a
// single placeholder tool in their place and notes the run in a slot the
// HTTP layer left in the request's context; the response writer replaces
// the placeholder's array with the cached bytes. The envelope is mcp-go's
// in either protocol era (resultType, ttlMs, cacheScope, _meta, cursors);
// the tools are as their servers listed them. Anything unexpected (a
// request that did not come through cachedToolLists, a list that does not
// match, a second list in one request) leaves mcp-go to encode the list
// from its own types, which lose fields they do not model.

// exposedTool is one tool as an endpoint lists it. It is never changed
// once built, so lists share it.
type exposedTool struct {
	name             string // the name clients see
	server, original string
	from             domain.Tool // what it was built from, to tell whether it changed
	tool             mcp.Tool
	json             []byte // how it is listed (listedJSON)
}

// toolList is an endpoint's tools sorted by name, the order mcp-go lists
// them in, with their encodings laid end to end.
type toolList struct {
	tools  []*exposedTool
	byName map[string]int
	array  []byte // the JSON array of the entries
	starts []int  // where each entry begins in array
}

// buildToolList makes the list of cat's tools under the names this
// endpoint uses, reusing prev's entries for tools that did not change.
func (ep *endpoint) buildToolList(cat *domain.Catalogue, prev *toolList) *toolList {
	l := &toolList{tools: make([]*exposedTool, 0, len(cat.Tools)), byName: make(map[string]int, len(cat.Tools))}
	for _, t := range cat.Tools {
		name := t.Name
		if ep.server != "" {
			name = t.Tool.Name
		}
		if e := prev.reusable(name, t); e != nil {
			l.tools = append(l.tools, e)
			continue
		}
		mt, err := exposeTool(name, t.Tool)
		if err == nil {
			var b []byte
			if b, err = listedJSON(mt, t.Tool.Raw); err == nil {
				l.tools = append(l.tools, &exposedTool{name: name, server: t.Server, original: t.Tool.Name, from: t.Tool, tool: mt, json: b})
				continue
			}
		}
		ep.g.opts.Log.Warn("gateway leaves a tool out", "server", t.Server, "tool", t.Tool.Name, "error", err)
	}
	slices.SortFunc(l.tools, func(a, b *exposedTool) int { return cmp.Compare(a.name, b.name) })
	if prev != nil && slices.Equal(l.tools, prev.tools) {
		return prev // nothing changed: its encoding stands
	}
	size := len(l.tools) + 2
	for _, e := range l.tools {
		size += len(e.json)
	}
	l.array = make([]byte, 1, size)
	l.array[0] = '['
	l.starts = make([]int, len(l.tools))
	for i, e := range l.tools {
		if i > 0 {
			l.array = append(l.array, ',')
		}
		l.starts[i] = len(l.array)
		l.array = append(l.array, e.json...)
		l.byName[e.name] = i
	}
	l.array = append(l.array, ']')
	return l
}

// listedJSON is how a tool is listed: the object exactly as its server
// listed it (Raw), under the name clients see, with the schemas mt carries
// (the server's own, or a plain object schema where it gave none) and
// without execution, which the gateway answers itself (see exposeTool).
// mcp-go's encoding of mt would drop every field its Tool type does not
// model and add empty ones the server never sent. A tool listed without
// Raw is encoded as mcp-go would.
func listedJSON(mt mcp.Tool, raw json.RawMessage) ([]byte, error) {
	var fields map[string]json.RawMessage
	if len(raw) == 0 || json.Unmarshal(raw, &fields) != nil || fields == nil {
		return json.Marshal(mt)
	}
	name, err := json.Marshal(mt.Name)
	if err != nil {
		return nil, err
	}
	fields["name"] = name
	delete(fields, "execution")
	fields["inputSchema"] = mt.RawInputSchema
	if len(mt.RawOutputSchema) > 0 {
		fields["outputSchema"] = mt.RawOutputSchema
	} else {
		delete(fields, "outputSchema")
	}
	return json.Marshal(fields)
}

// reusable returns the entry l already has for the tool clients see as
// name, when it routes to the same tool and was built from the same
// listing; nil otherwise.
func (l *toolList) reusable(name string, t domain.ExposedTool) *exposedTool {
	if l == nil {
		return nil
	}
	i, ok := l.byName[name]
	if !ok {
		return nil
	}
	e := l.tools[i]
	if e.server != t.Server || e.original != t.Tool.Name || !sameListing(e.from, t.Tool) {
		return nil
	}
	return e
}

// sameListing reports whether exposeTool makes the same tool of a and b:
// it reads only Raw when there is one, and only these fields when not.
func sameListing(a, b domain.Tool) bool {
	if !bytes.Equal(a.Raw, b.Raw) || a.Name != b.Name {
		return false
	}
	return len(a.Raw) > 0 || (a.Title == b.Title && a.Description == b.Description &&
		bytes.Equal(a.InputSchema, b.InputSchema) && bytes.Equal(a.OutputSchema, b.OutputSchema))
}

// same reports whether l and other show clients the same tools routed to
// the same places (mcp-go's SetTools tells every client the list changed,
// so it is called only when they differ). A nil list was never set.
func (l *toolList) same(other *toolList) bool {
	if l == nil || other == nil || len(l.tools) != len(other.tools) {
		return false
	}
	if l == other {
		return true
	}
	for i, a := range l.tools {
		b := other.tools[i]
		if a != b && (a.name != b.name || a.server != b.server || a.original != b.original || !bytes.Equal(a.json, b.json)) {
			return false
		}
	}
	return true
}

// serverTools is what mcp-go is given: each tool with the handler that
// calls it through the invocation service.
func (ep *endpoint) serverTools(l *toolList) []server.ServerTool {
	out := make([]server.ServerTool, len(l.tools))
	for i, e := range l.tools {
		out[i] = server.ServerTool{Tool: e.tool, Handler: ep.callTool(e.server, e.original)}
	}
	return out
}

// run returns where in l the tools mcp-go is about to list begin, when
// they are exactly l's entries from there to the end (mcp-go lists a
// suffix when a client sends a cursor). Each entry's raw input schema is
// compared by identity, not only its name: exposeTool gives every entry
// a schema slice of its own, so a tool set from an older or newer list
// never passes for this one's.
func (l *toolList) run(tools []mcp.Tool) (int, bool) {
	if l == nil || len(tools) == 0 {
		return 0, false
	}
	start, ok := l.byName[tools[0].Name]
	if !ok || len(tools) != len(l.tools)-start {
		return 0, false
	}
	for i, t := range tools {
		e := l.tools[start+i]
		if t.Name != e.name || len(t.RawInputSchema) == 0 || len(e.tool.RawInputSchema) == 0 || &t.RawInputSchema[0] != &e.tool.RawInputSchema[0] {
			return 0, false
		}
	}
	return start, true
}

// from is the JSON array of l's entries from start on, in pieces that
// share l's bytes.
func (l *toolList) from(start int) [][]byte {
	if start == 0 {
		return [][]byte{l.array}
	}
	return [][]byte{[]byte("["), l.array[l.starts[start]:]}
}
