package views

import (
	"context"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/locales"
)

// ToolPolicyProps is the policy control of one tool in the drawer: a
// select of the tool's default and the four policies, and a mark on tools
// the server gave no annotations, whose default is a guess.
type ToolPolicyProps struct {
	ID        string // the control's element id, which an answer replaces
	SelectID  string
	Tool      string
	Action    string // PUT here with policy=<value>
	Effective string // the policy in effect: allow, ask, deny or hidden
	Annotated bool
	AskAll    bool // the server asks about every tool, so this one is asked about too
	Options   []PolicyOption
}

// PolicyOption is one choice of the select.
type PolicyOption struct {
	Value    string // "default", or a policy
	Label    Message
	Selected bool
}

// PolicyDefault is the select's value for "no choice: the default".
const PolicyDefault = "default"

var policyLabels = map[domain.Policy]string{
	domain.PolicyAllow:  "PolicyAllow",
	domain.PolicyAsk:    "PolicyAsk",
	domain.PolicyDeny:   "PolicyDeny",
	domain.PolicyHidden: "PolicyHidden",
}

// NewToolPolicyProps builds the control for t on server from what a
// person set; action is where a change is sent.
func NewToolPolicyProps(server string, t domain.Tool, sp domain.ServerPolicies, action string) ToolPolicyProps {
	key := ServerKey(server) + "-" + ServerKey(t.Name)
	chosen, ok := sp.Tools[t.Name]
	if !chosen.Valid() {
		ok = false
	}
	def := domain.DefaultPolicy(t)
	p := ToolPolicyProps{
		ID: "tool-policy-" + key, SelectID: "tool-policy-select-" + key, Tool: t.Name, Action: action,
		Effective: string(sp.Effective(t)), Annotated: domain.Annotated(t),
		AskAll: sp.AskAll && sp.Effective(t) == domain.PolicyAsk,
	}
	p.Options = append(p.Options, PolicyOption{Value: PolicyDefault, Selected: !ok,
		Label: Message{ID: "PolicyDefault", Data: map[string]any{"Policy": policyLabels[def]}}})
	for _, pol := range []domain.Policy{domain.PolicyAllow, domain.PolicyAsk, domain.PolicyDeny, domain.PolicyHidden} {
		p.Options = append(p.Options, PolicyOption{Value: string(pol), Selected: ok && chosen == pol, Label: Message{ID: policyLabels[pol]}})
	}
	return p
}

// AskAllProps is a server's "ask before every tool" switch. A change
// answers with the whole capability section, since every tool's policy may
// change with it.
type AskAllProps struct {
	ID     string
	Action string // PUT here with askAll=true, or nothing for off
	Target string // the capability section's id
	On     bool
}

// ApplyToolPolicies gives each tool of caps its policy control, and the
// server its ask-all switch; action returns the URL a tool's changes go
// to, askAllAction the switch's.
func ApplyToolPolicies(caps *DrawerCapsProps, server string, tools []domain.Tool, sp domain.ServerPolicies, action func(tool string) string, askAllAction string) {
	caps.AskAll = &AskAllProps{ID: "ask-all-" + ServerKey(server), Action: askAllAction, Target: caps.ID, On: sp.AskAll}
	byName := make(map[string]domain.Tool, len(tools))
	for _, t := range tools {
		byName[t.Name] = t
	}
	for i := range caps.Tools {
		t, ok := byName[caps.Tools[i].Name]
		if !ok {
			continue
		}
		pp := NewToolPolicyProps(server, t, sp, action(t.Name))
		caps.Tools[i].Policy = &pp
	}
}

// policyLabel translates the policy a "Default (…)" option names, or is
// empty for options that name none.
func policyLabel(ctx context.Context, data map[string]any) string {
	id, _ := data["Policy"].(string)
	if id == "" {
		return ""
	}
	return locales.T(ctx, id, nil)
}
