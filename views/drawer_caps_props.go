package views

import (
	"strings"

	"github.com/switchboard-mcp/switchboard/domain"
)

// DrawerCapsProps is what a server offers, as the drawer lists it.
type DrawerCapsProps struct {
	ID        string
	HeadingID string
	Server    string // the server's name, for the Read and Get buttons' URLs
	// Hidden replaces the lists with a note while the server is disabled;
	// the lists themselves stay cached by the supervisor.
	Hidden bool
	// HiddenID says why the lists are hidden: disabled by a person, or
	// blocked, which never started the server.
	HiddenID  string
	Stamp     string
	LiveURL   string
	Tools     []ToolProps
	Resources []ResourceProps
	Templates []TemplateProps
	Prompts   []PromptProps
	// AskAll is the server's "ask before every tool" switch; nil when
	// policies are off.
	AskAll *AskAllProps
}

// ToolProps is one tool of a server.
type ToolProps struct {
	Name        string
	Title       string
	Description string
	Tags        []ToolTag
	Risk        string // low, medium, high
	RiskID      string
	Server      string // the server offering the tool, for the Run button's URL
	RunStatusID string // the region announcing a call the form started
	// Policy is the tool's policy control; nil when policies are off.
	Policy *ToolPolicyProps
}

// ToolTag is one annotation hint a tool declares as true.
type ToolTag struct {
	Key string // the MCP hint name without "Hint": readOnly, destructive, idempotent, openWorld
	ID  string // message id of its label
}

// ResourceProps is one resource of a server.
type ResourceProps struct {
	URI      string
	Name     string
	MIMEType string
	Size     int64
	HasSize  bool
}

// TemplateProps is one resource template of a server.
type TemplateProps struct {
	URITemplate string
	Name        string
	Description string
	MIMEType    string
}

// PromptProps is one prompt of a server.
type PromptProps struct {
	Name        string
	Description string
	Args        []PromptArgProps
}

// PromptArgProps is one argument of a prompt.
type PromptArgProps struct {
	Name        string
	Description string
	Required    bool
}

// NewDrawerCapsProps turns the cached lists into what the drawer shows.
func NewDrawerCapsProps(s domain.Status, caps domain.Capabilities, liveURL string) DrawerCapsProps {
	key := ServerKey(s.ServerName)
	p := DrawerCapsProps{
		ID:        DrawerCapsID(s.ServerName),
		Server:    s.ServerName,
		HeadingID: "drawer-caps-heading-" + key,
		Hidden:    s.State == domain.StateDisabled,
		HiddenID:  capsHiddenID(s),
		Stamp:     liveStamp(s),
		LiveURL:   liveURL,
	}
	if p.Hidden {
		return p
	}
	p.Tools = make([]ToolProps, 0, len(caps.Tools))
	for _, t := range caps.Tools {
		tp := newToolProps(t)
		tp.Server, tp.RunStatusID = s.ServerName, RunStatusID(s.ServerName, t.Name)
		p.Tools = append(p.Tools, tp)
	}
	for _, r := range caps.Resources {
		rp := ResourceProps{URI: r.URI, Name: firstNonEmpty(r.Title, r.Name), MIMEType: r.MIMEType}
		if r.Size != nil {
			rp.Size, rp.HasSize = *r.Size, true
		}
		p.Resources = append(p.Resources, rp)
	}
	for _, t := range caps.ResourceTemplates {
		p.Templates = append(p.Templates, TemplateProps{URITemplate: t.URITemplate,
			Name: firstNonEmpty(t.Title, t.Name), Description: t.Description, MIMEType: t.MIMEType})
	}
	for _, pr := range caps.Prompts {
		pp := PromptProps{Name: pr.Name, Description: pr.Description}
		for _, a := range pr.Arguments {
			pp.Args = append(pp.Args, PromptArgProps{Name: a.Name, Description: a.Description, Required: a.Required})
		}
		p.Prompts = append(p.Prompts, pp)
	}
	return p
}

// DrawerCapsID is the id of a server's capability section, which the
// drawer's script reloads after a reconnect.
func DrawerCapsID(name string) string { return "drawer-caps-" + ServerKey(name) }

func newToolProps(t domain.Tool) ToolProps {
	p := ToolProps{Name: t.Name, Title: firstNonEmpty(t.Title, t.Annotations.Title), Description: t.Description}
	if p.Title == p.Name {
		p.Title = ""
	}
	a := t.Annotations
	for _, h := range []struct {
		v   *bool
		key string
		id  string
	}{
		{a.ReadOnlyHint, "readOnly", "DrawerTagReadOnly"},
		{a.DestructiveHint, "destructive", "DrawerTagDestructive"},
		{a.IdempotentHint, "idempotent", "DrawerTagIdempotent"},
		{a.OpenWorldHint, "openWorld", "DrawerTagOpenWorld"},
	} {
		if h.v != nil && *h.v {
			p.Tags = append(p.Tags, ToolTag{Key: h.key, ID: h.id})
		}
	}
	switch r := t.Risk(); r {
	case domain.RiskLow:
		p.Risk, p.RiskID = string(r), "DrawerRiskLow"
	case domain.RiskHigh:
		p.Risk, p.RiskID = string(r), "DrawerRiskHigh"
	default:
		p.Risk, p.RiskID = string(domain.RiskMedium), "DrawerRiskMedium"
	}
	return p
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// Roving returns the tabindex of item i of a list: only the first is in
// the tab order, and arrow keys move between the others.
func Roving(i int) string {
	if i == 0 {
		return "0"
	}
	return "-1"
}

// capsHiddenID words the note shown instead of the lists: Enable brings a
// disabled server's lists back, but a blocked one has nothing to enable.
func capsHiddenID(s domain.Status) string {
	if s.BlockedReason != domain.BlockedNone {
		return "DrawerCapsBlocked"
	}
	return "DrawerCapsHidden"
}

// SearchText is what the drawer's tool search matches, in lower case:
// the name, the title and the description.
func (t ToolProps) SearchText() string {
	return strings.ToLower(t.Name + "\n" + t.Title + "\n" + t.Description)
}
