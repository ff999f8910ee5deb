package views_test

import (
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

func TestNewToolPolicyProps(t *testing.T) {
	yes := true
	destructive := domain.Tool{Name: "rm", Annotations: domain.Annotations{DestructiveHint: &yes}}
	tests := []struct {
		name          string
		tool          domain.Tool
		sp            domain.ServerPolicies
		selected      string
		effective     string
		defaultLabel  any
		annotated     bool
		askAllApplies bool
	}{
		{"destructive-default-asks", destructive, domain.ServerPolicies{}, "default", "ask", "PolicyAsk", true, false},
		{"plain-default-allows-not-annotated", domain.Tool{Name: "ls"}, domain.ServerPolicies{}, "default", "allow", "PolicyAllow", false, false},
		{"chosen-deny", destructive, domain.ServerPolicies{Tools: map[string]domain.Policy{"rm": "deny"}}, "deny", "deny", "PolicyAsk", true, false},
		{"ask-all-noted", domain.Tool{Name: "ls"}, domain.ServerPolicies{AskAll: true}, "default", "ask", "PolicyAllow", false, true},
		{"ask-all-not-noted-on-hidden", domain.Tool{Name: "ls"}, domain.ServerPolicies{AskAll: true, Tools: map[string]domain.Policy{"ls": "hidden"}}, "hidden", "hidden", "PolicyAllow", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := views.NewToolPolicyProps("files", tt.tool, tt.sp, "/put")
			var selected []string
			for _, o := range p.Options {
				if o.Selected {
					selected = append(selected, o.Value)
				}
			}
			if len(selected) != 1 || selected[0] != tt.selected {
				t.Errorf("selected: got %v, want [%s]", selected, tt.selected)
			}
			if p.Effective != tt.effective || p.Annotated != tt.annotated || p.AskAll != tt.askAllApplies {
				t.Errorf("got effective %q annotated %v askAll %v", p.Effective, p.Annotated, p.AskAll)
			}
			if got := p.Options[0].Label.Data["Policy"]; got != tt.defaultLabel {
				t.Errorf("default label: got %v, want %v", got, tt.defaultLabel)
			}
			if len(p.Options) != 5 {
				t.Errorf("options: got %d, want 5", len(p.Options))
			}
		})
	}
}
