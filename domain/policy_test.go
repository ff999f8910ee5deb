package domain_test

import (
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
)

func hint(b bool) *bool { return &b }

func TestDefaultPolicyAsksOnlyForDestructiveTools(t *testing.T) {
	tests := []struct {
		name      string
		ann       domain.Annotations
		want      domain.Policy
		annotated bool
	}{
		{"no-annotations-allowed-but-not-annotated", domain.Annotations{}, domain.PolicyAllow, false},
		{"destructive-asks", domain.Annotations{DestructiveHint: hint(true)}, domain.PolicyAsk, true},
		{"destructive-and-read-only-allowed", domain.Annotations{DestructiveHint: hint(true), ReadOnlyHint: hint(true)}, domain.PolicyAllow, true},
		{"destructive-false-allowed", domain.Annotations{DestructiveHint: hint(false)}, domain.PolicyAllow, true},
		{"read-only-allowed", domain.Annotations{ReadOnlyHint: hint(true)}, domain.PolicyAllow, true},
		{"open-world-only-allowed", domain.Annotations{OpenWorldHint: hint(true)}, domain.PolicyAllow, true},
		{"title-only-not-annotated", domain.Annotations{Title: "T"}, domain.PolicyAllow, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tool := domain.Tool{Name: "x", Annotations: tt.ann}
			if got := domain.DefaultPolicy(tool); got != tt.want {
				t.Errorf("DefaultPolicy: got %v, want %v", got, tt.want)
			}
			if got := domain.Annotated(tool); got != tt.annotated {
				t.Errorf("Annotated: got %v, want %v", got, tt.annotated)
			}
		})
	}
}

func TestEffectivePolicy(t *testing.T) {
	plain := domain.Tool{Name: "plain"}
	destructive := domain.Tool{Name: "rm", Annotations: domain.Annotations{DestructiveHint: hint(true)}}
	tests := []struct {
		name string
		sp   domain.ServerPolicies
		tool domain.Tool
		want domain.Policy
	}{
		{"nothing-set-plain-allows", domain.ServerPolicies{}, plain, domain.PolicyAllow},
		{"nothing-set-destructive-asks", domain.ServerPolicies{}, destructive, domain.PolicyAsk},
		{"choice-beats-default", domain.ServerPolicies{Tools: map[string]domain.Policy{"rm": domain.PolicyAllow}}, destructive, domain.PolicyAllow},
		{"deny-chosen", domain.ServerPolicies{Tools: map[string]domain.Policy{"plain": domain.PolicyDeny}}, plain, domain.PolicyDeny},
		{"hidden-chosen", domain.ServerPolicies{Tools: map[string]domain.Policy{"plain": domain.PolicyHidden}}, plain, domain.PolicyHidden},
		{"ask-all-raises-allow", domain.ServerPolicies{AskAll: true}, plain, domain.PolicyAsk},
		{"ask-all-raises-chosen-allow", domain.ServerPolicies{AskAll: true, Tools: map[string]domain.Policy{"plain": domain.PolicyAllow}}, plain, domain.PolicyAsk},
		{"ask-all-keeps-deny", domain.ServerPolicies{AskAll: true, Tools: map[string]domain.Policy{"plain": domain.PolicyDeny}}, plain, domain.PolicyDeny},
		{"ask-all-keeps-hidden", domain.ServerPolicies{AskAll: true, Tools: map[string]domain.Policy{"plain": domain.PolicyHidden}}, plain, domain.PolicyHidden},
		{"unknown-stored-value-falls-back-to-default", domain.ServerPolicies{Tools: map[string]domain.Policy{"rm": "maybe"}}, destructive, domain.PolicyAsk},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.sp.Effective(tt.tool); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestPolicyValid(t *testing.T) {
	for _, p := range []domain.Policy{"allow", "ask", "deny", "hidden"} {
		if !p.Valid() {
			t.Errorf("%q: got invalid, want valid", p)
		}
	}
	for _, p := range []domain.Policy{"", "Allow", "block"} {
		if p.Valid() {
			t.Errorf("%q: got valid, want invalid", p)
		}
	}
}

func TestVisibleToolsDropsHiddenOnly(t *testing.T) {
	store := domaintest.NewPolicyStore()
	scope := domain.Scope{User: "u", Workspace: "w"}
	for tool, p := range map[string]domain.Policy{"a": domain.PolicyHidden, "b": domain.PolicyDeny, "c": domain.PolicyAsk} {
		if err := store.SaveToolPolicy(t.Context(), scope, "srv", tool, p); err != nil {
			t.Fatal(err)
		}
	}
	tools := []domain.Tool{{Name: "a"}, {Name: "b"}, {Name: "c"}, {Name: "d"}}
	got, err := domain.NewPolicies(store).VisibleTools(t.Context(), scope, "srv", tools)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range got {
		names = append(names, tool.Name)
	}
	if strings.Join(names, ",") != "b,c,d" {
		t.Errorf("got %v, want b,c,d", names)
	}
	var none *domain.Policies
	if got, err := none.VisibleTools(t.Context(), scope, "srv", tools); err != nil || len(got) != 4 {
		t.Errorf("nil policies: got %d tools, %v", len(got), err)
	}
	if p, err := none.Effective(t.Context(), scope, "srv", domain.Tool{Name: "x"}); err != nil || p != domain.PolicyAllow {
		t.Errorf("nil policies: got %v %v, want allow", p, err)
	}
}

// TestVisibleToolsSharesAnUnfilteredList checks a server that hides nothing
// gets its own list back (no copy per server on the gateway), and one that
// hides a tool in the middle keeps the others in order.
func TestVisibleToolsSharesAnUnfilteredList(t *testing.T) {
	store := domaintest.NewPolicyStore()
	scope := domain.Scope{User: "u", Workspace: "w"}
	tools := []domain.Tool{{Name: "a"}, {Name: "b"}, {Name: "c"}}
	got, err := domain.NewPolicies(store).VisibleTools(t.Context(), scope, "srv", tools)
	if err != nil || len(got) != 3 || &got[0] != &tools[0] {
		t.Fatalf("nothing hidden: got %v (shared %v), %v", got, len(got) > 0 && &got[0] == &tools[0], err)
	}
	if err := store.SaveToolPolicy(t.Context(), scope, "srv", "b", domain.PolicyHidden); err != nil {
		t.Fatal(err)
	}
	got, err = domain.NewPolicies(store).VisibleTools(t.Context(), scope, "srv", tools)
	if err != nil || len(got) != 2 || got[0].Name != "a" || got[1].Name != "c" {
		t.Fatalf("b hidden: got %v, %v; want a, c", got, err)
	}
	if tools[1].Name != "b" {
		t.Errorf("the server's list changed: %v", tools)
	}
}
