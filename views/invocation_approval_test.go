package views_test

import (
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

func heldCall() domain.Invocation {
	inv := invAt(domain.InvocationAwaitingApproval, "")
	inv.Source = domain.SourceGateway
	inv.Client = domain.ClientIdentity{Name: "Claude <Code>", Version: "1.2", Token: "laptop"}
	return inv
}

func TestHeldCardAsksInEachLanguage(t *testing.T) {
	tests := []struct {
		lang, badge, approve, deny, question, source string
	}{
		{"en", "Awaiting approval", "Approve", "Deny", "Claude <Code> wants to run echo on demo", "Claude <Code> 1.2 · via gateway"},
		{"pt-BR", "Aguardando aprovação", "Aprovar", "Negar", "Claude <Code> quer executar echo em demo", "Claude <Code> 1.2 · pelo gateway"},
		{"zh-Hans", "等待批准", "批准", "拒绝", "Claude <Code> 想在 demo 上运行 echo", "Claude <Code> 1.2 · 通过网关"},
	}
	urls := invURLs
	urls.Approve, urls.Deny = "/approve", "/deny"
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			doc := renderDrawerPart(t, tt.lang, views.InvocationCard(views.NewInvocationCardProps(heldCall(), views.CardInput{URLs: urls})))
			card := doc.Find(`[data-testid="invocation-card"]`)
			if got := card.AttrOr("data-status", ""); got != "awaiting_approval" {
				t.Errorf("status: got %q", got)
			}
			if got := card.Find(`[data-testid="invocation-badge"]`).Text(); !strings.Contains(got, tt.badge) {
				t.Errorf("badge: got %q, want %q", got, tt.badge)
			}
			box := card.Find(`[data-testid="invocation-approval"]`)
			if got := box.AttrOr("role", ""); got != "alert" {
				t.Errorf("approval role: got %q, want alert", got)
			}
			if got := box.Find(`[data-testid="invocation-approval-question"]`).Text(); !strings.Contains(got, tt.question) {
				t.Errorf("question: got %q, want %q", got, tt.question)
			}
			approve, deny := box.Find(`button[data-testid="invocation-approve"]`), box.Find(`button[data-testid="invocation-deny"]`)
			if approve.Text() != tt.approve || approve.AttrOr("hx-post", "") != "/approve" || approve.AttrOr("type", "") != "button" {
				t.Errorf("approve button: %q %q", approve.Text(), approve.AttrOr("hx-post", ""))
			}
			if deny.Text() != tt.deny || deny.AttrOr("hx-post", "") != "/deny" {
				t.Errorf("deny button: %q %q", deny.Text(), deny.AttrOr("hx-post", ""))
			}
			if _, open := card.Find(`[data-testid="invocation-args"]`).Attr("open"); !open {
				t.Error("the arguments of a held call are closed; a person must see what they approve")
			}
			src := card.Find(`[data-testid="invocation-source"]`)
			if got := src.Text(); got != tt.source {
				t.Errorf("source: got %q, want %q", got, tt.source)
			}
			if got := src.AttrOr("data-source", ""); got != "gateway" {
				t.Errorf("data-source: got %q", got)
			}
		})
	}
}

func TestApprovalButtonsOnlyWhileHeld(t *testing.T) {
	urls := invURLs
	urls.Approve, urls.Deny = "/approve", "/deny"
	for _, s := range []domain.InvocationStatus{domain.InvocationPending, domain.InvocationRunning,
		domain.InvocationSuccess, domain.InvocationDenied, domain.InvocationCancelled} {
		inv := heldCall()
		inv.Status = s
		card := renderCard(t, inv, views.CardInput{URLs: urls})
		if n := card.Find(`[data-testid="invocation-approval"]`).Length(); n != 0 {
			t.Errorf("%s: approval shown", s)
		}
	}
}

func TestDeniedCardSaysSoInWords(t *testing.T) {
	inv := heldCall()
	inv.Status, inv.ErrorCode, inv.Error = domain.InvocationDenied, domain.ErrorCodeDenied, domain.DeniedMessage
	inv.EndedAt = inv.StartedAt
	card := renderCard(t, inv, views.CardInput{})
	if got := card.Find(`[data-testid="invocation-badge"]`).Text(); !strings.Contains(got, "Denied") {
		t.Errorf("badge: got %q", got)
	}
	if got := card.Find(`[data-testid="invocation-error"]`).Text(); !strings.Contains(got, "You denied this call") {
		t.Errorf("error: got %q", got)
	}
}

func TestInvocationSourceWords(t *testing.T) {
	tests := []struct {
		name   string
		source string
		client domain.ClientIdentity
		want   string
	}{
		{"dashboard", domain.SourceDashboard, domain.ClientIdentity{}, "from the dashboard"},
		{"empty-is-dashboard", "", domain.ClientIdentity{}, "from the dashboard"},
		{"api", domain.SourceAPI, domain.ClientIdentity{}, "via the API"},
		{"gateway-named", domain.SourceGateway, domain.ClientIdentity{Name: "Cursor"}, "Cursor · via gateway"},
		{"gateway-anonymous", domain.SourceGateway, domain.ClientIdentity{}, "via gateway"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inv := invAt(domain.InvocationSuccess, "")
			inv.Source, inv.Client = tt.source, tt.client
			if got := renderCard(t, inv, views.CardInput{}).Find(`[data-testid="invocation-source"]`).Text(); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
