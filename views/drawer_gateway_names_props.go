package views

import "github.com/switchboard-mcp/switchboard/domain"

// GatewayNamesProps is how AI clients reach one server's tools, prompts
// and resources on the aggregated endpoint /mcp: the common case in one
// line (every name is the server's prefix plus the original), and only the
// names that differ from that, plus the resource URIs another server
// serves instead.
type GatewayNamesProps struct {
	// Shown is false when there is no gateway: nothing is rendered.
	Shown bool
	// Exposed reports whether the server is on /mcp now.
	Exposed bool
	// Prefix is what the server's names start with on /mcp: "<server>__",
	// made safe.
	Prefix string
	// Example is one tool's (or prompt's) name on /mcp, when the server
	// lists any under its plain name.
	Example string
	Renamed []GatewayNameProps
	Clashes []GatewayClashProps
}

// GatewayNameProps is a tool or prompt whose name on /mcp is not simply
// the prefix plus its name: it was made safe, shortened or given a hash to
// tell it apart.
type GatewayNameProps struct {
	Kind     string // "tool" or "prompt"
	Original string
	Exposed  string
}

// GatewayClashProps is a resource URI (or URI template) this server lists
// that several servers list; ServedBy is the one /mcp routes it to.
type GatewayClashProps struct {
	URI      string
	ServedBy string
	Mine     bool // this server serves it; the others' are hidden
}

// NewGatewayNamesProps reads one server's part of the gateway's
// catalogue; a nil catalogue (no gateway) shows nothing.
func NewGatewayNamesProps(server string, cat *domain.Catalogue) GatewayNamesProps {
	if cat == nil {
		return GatewayNamesProps{}
	}
	p := GatewayNamesProps{Shown: true, Exposed: cat.Exposes(server),
		Prefix: domain.SafeName(server) + domain.ExposedNameSeparator}
	add := func(kind, original, exposed string) {
		if exposed == p.Prefix+original {
			if p.Example == "" {
				p.Example = exposed
			}
			return
		}
		p.Renamed = append(p.Renamed, GatewayNameProps{Kind: kind, Original: original, Exposed: exposed})
	}
	for _, t := range cat.Tools {
		if t.Server == server {
			add("tool", t.Tool.Name, t.Name)
		}
	}
	for _, pr := range cat.Prompts {
		if pr.Server == server {
			add("prompt", pr.Prompt.Name, pr.Name)
		}
	}
	for _, c := range cat.Clashes {
		for _, s := range c.Servers {
			if s == server {
				p.Clashes = append(p.Clashes, GatewayClashProps{URI: c.URI, ServedBy: c.Servers[0], Mine: c.Servers[0] == server})
				break
			}
		}
	}
	return p
}
