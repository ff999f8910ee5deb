package views_test

import (
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

func approveAt(n string) string { return "/ui/servers/" + n + "/approve" }
func rejectAt(n string) string  { return "/ui/servers/" + n + "/reject" }

func TestNewApprovalProps(t *testing.T) {
	pending := func(n string) domain.Status {
		return domain.Status{ServerName: n, Source: "/p/.mcp.json", Target: n + " --run", BlockedReason: domain.BlockedPending}
	}
	tests := []struct {
		name     string
		list     []domain.Status
		wantName string
		wantMore int
	}{
		{"none-pending-no-dialog", []domain.Status{{ServerName: "a"}, {ServerName: "b", BlockedReason: domain.BlockedRejected}}, "", 0},
		{"first-pending-is-asked", []domain.Status{{ServerName: "a"}, pending("b"), pending("c")}, "b", 1},
		{"excluded-is-not-a-question", []domain.Status{{ServerName: "x", BlockedReason: domain.BlockedExcluded}, pending("y")}, "y", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := views.NewApprovalProps(tt.list, approveAt, rejectAt, true)
			if p.Show != (tt.wantName != "") || p.Name != tt.wantName || p.More() != tt.wantMore {
				t.Fatalf("got show=%v name=%q more=%d, want name %q more %d", p.Show, p.Name, p.More(), tt.wantName, tt.wantMore)
			}
			if p.Show && (p.ApproveURL != approveAt(p.Name) || p.RejectURL != rejectAt(p.Name) || p.Target != p.Name+" --run") {
				t.Errorf("props: got %+v", p)
			}
		})
	}
	if got := views.PendingApprovals([]domain.Status{{ServerName: "a"}, pending("b")}); strings.Join(got, ",") != "b" {
		t.Errorf("PendingApprovals: got %v, want [b]", got)
	}
}

func TestApprovalDialogIsAnAccessibleAlertDialog(t *testing.T) {
	s := domain.Status{ServerName: `<img src=x onerror=alert(1)>`, Source: `/p/<script>x()</script>/.mcp.json`,
		Target: `sh -c "rm -rf <b>/</b>" API_KEY=[redacted]`, BlockedReason: domain.BlockedPending}
	two := s
	two.ServerName = "zz"
	doc := renderComponent(t, "zh-Hans", views.ApprovalDialog(views.NewApprovalProps([]domain.Status{s, two}, approveAt, rejectAt, true)))
	for _, sel := range []string{"img", "script", "b"} {
		if n := doc.Find(sel).Length(); n != 0 {
			t.Errorf("hostile text became %d <%s> element(s)", n, sel)
		}
	}
	slot := doc.Find("#approval-slot")
	if got, _ := slot.Attr("hx-swap-oob"); got != "outerHTML" {
		t.Errorf("slot hx-swap-oob: got %q, want outerHTML", got)
	}
	d := slot.Find(`[data-testid="approval-dialog"][role="alertdialog"][aria-modal="true"]`)
	if d.Length() != 1 {
		t.Fatalf("dialog: got %d, want 1 modal alertdialog", d.Length())
	}
	for _, attr := range []string{"aria-labelledby", "aria-describedby"} {
		id, _ := d.Attr(attr)
		if id == "" || d.Find("#"+id).Length() != 1 {
			t.Errorf("%s %q names no element inside the dialog", attr, id)
		}
	}
	if got := d.Find(`[data-testid="approval-title"]`).Text(); !strings.Contains(got, s.ServerName) || !strings.Contains(got, "允许") {
		t.Errorf("title: got %q, want the Chinese question naming the server", got)
	}
	if got := d.Find(`[data-testid="approval-source"]`).Text(); got != s.Source {
		t.Errorf("source: got %q, want %q", got, s.Source)
	}
	if got := d.Find(`[data-testid="approval-target"]`).Text(); got != s.Target {
		t.Errorf("target: got %q, want %q", got, s.Target)
	}
	if d.Find(`[data-testid="approval-more"]`).Length() != 1 {
		t.Errorf("a second pending server is not mentioned")
	}
	buttons := d.Find("button")
	if got, _ := buttons.First().Attr("data-testid"); got != "approval-reject" {
		t.Errorf("first button: got %q, want approval-reject, the safe answer focus lands on", got)
	}
	if got, _ := d.Find(`[data-testid="approval-approve"]`).Attr("hx-post"); got != approveAt(s.ServerName) {
		t.Errorf("approve hx-post: got %q", got)
	}
	if got, _ := d.Find(`[data-testid="approval-reject"]`).Attr("hx-post"); got != rejectAt(s.ServerName) {
		t.Errorf("reject hx-post: got %q", got)
	}
}

func TestApprovalSlotEmptyWithoutPending(t *testing.T) {
	doc := render(t, "en", views.NewPageProps(views.PageInput{URLs: testURLs, Now: testNow, List: []domain.Status{{ServerName: "a"}}}))
	slot := doc.Find("#approval-slot")
	if slot.Length() != 1 || slot.Children().Length() != 0 {
		t.Errorf("approval slot: got %d slots holding %q, want one empty slot", slot.Length(), slot.Text())
	}
	if _, ok := slot.Attr("hx-swap-oob"); ok {
		t.Errorf("the page's own slot carries hx-swap-oob")
	}
}
