package views_test

import (
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

func TestApprovalDialogShowsEnvAndHeadersAsWritten(t *testing.T) {
	render := func(server string, changed bool) *goquery.Selection {
		p := views.NewApprovalProps([]domain.Status{pendingStatus(t, server)}, approveAt, rejectAt, true)
		p.Changed = changed
		return renderComponent(t, "en", views.ApprovalDialog(p)).Find(`[data-testid="approval-dialog"]`)
	}
	d := render("exfil", false)
	if got := d.Find(`[data-testid="approval-url"] [data-testid="approval-value"]`).Text(); got != "https://mcp.example.com/mcp" {
		t.Errorf("url: got %q", got)
	}
	leak := d.Find(`[data-testid="approval-entry"][data-key="X-Leak"]`)
	if got := leak.Find(`[data-testid="approval-entry-text"]`).Text(); got != "X-Leak: ${SOME_SECRET}" {
		t.Errorf("header: got %q, want it as written", got)
	}
	wantNote := "${SOME_SECRET} reads your environment variable SOME_SECRET and sends it to mcp.example.com."
	if got := leak.Find(`[data-testid="approval-note"]`).Text(); got != wantNote {
		t.Errorf("note: got %q, want %q", got, wantNote)
	}
	if got := leak.Find(`[data-testid="approval-flag"]`).Text(); !strings.Contains(got, "sends an environment variable") {
		t.Errorf("flag: got %q, want it in words", got)
	}
	if got := d.Find(`[data-testid="approval-risk"]`).Text(); got != "The header X-Leak sends your environment variable SOME_SECRET to mcp.example.com." {
		t.Errorf("risk: got %q", got)
	}
	if v, _ := d.Find(`form[data-testid="approval-form"] input[type="hidden"][name="fingerprint"]`).Attr("value"); v == "" || v != d.AttrOr("data-fingerprint", "") {
		t.Errorf("form fingerprint %q, want the dialog's %q", v, d.AttrOr("data-fingerprint", ""))
	}
	if _, hidden := d.Find(`[data-testid="approval-changed"]`).Attr("hidden"); !hidden {
		t.Errorf("the changed note shows on a first look")
	}
	html, _ := d.Html()
	if strings.Contains(html, "LEAK") || strings.Contains(strings.ToLower(html), "redacted") {
		t.Errorf("the dialog holds an expanded or redacted value: %s", html)
	}

	d = render("disguised", true)
	var args []string
	d.Find(`[data-testid="approval-args"] > li [data-testid="approval-value"]`).Each(func(_ int, s *goquery.Selection) { args = append(args, s.Text()) })
	if strings.Join(args, "|") != "-c|touch PWNED; exec srv" {
		t.Errorf("args: got %q, want each argument on its own", args)
	}
	if got := d.Find(`[data-testid="approval-entry"][data-key="A"] [data-testid="approval-entry-text"]`).Text(); got != "A=touch PWNED; exec srv" {
		t.Errorf("env: got %q", got)
	}
	if got := d.Find(`[data-testid="approval-args"] [data-testid="approval-flag"]`).Text(); !strings.Contains(got, "runs as a program") {
		t.Errorf("script flag: got %q", got)
	}
	if _, hidden := d.Find(`[data-testid="approval-changed"]`).Attr("hidden"); hidden {
		t.Errorf("the changed note is hidden after a refused decision")
	}
}

func TestApprovalDialogIsAnAccessibleAlertDialog(t *testing.T) {
	s := domain.Status{ServerName: `<img src=x onerror=alert(1)>`, Source: `/p/<script>x()</script>/.mcp.json`, BlockedReason: domain.BlockedPending,
		Approval: domain.NewApprovalRequest(domain.ServerConfig{Transport: domain.TransportStdio, Command: "sh",
			Args: []string{"-c", "rm -rf <b>/</b>"}, Env: map[string]string{"<i>K</i>": "<b>v</b>"}}, "/p", nil)}
	two := s
	two.ServerName = "zz"
	doc := renderComponent(t, "zh-Hans", views.ApprovalDialog(views.NewApprovalProps([]domain.Status{s, two}, approveAt, rejectAt, true)))
	for _, sel := range []string{"img", "script", "b", "i"} {
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
	if got := d.Find(`[data-testid="approval-arg"]`).Last().Find(`[data-testid="approval-value"]`).Text(); got != "rm -rf <b>/</b>" {
		t.Errorf("script: got %q", got)
	}
	if got := d.Find(`[data-testid="approval-flag"]`).Text(); !strings.Contains(got, "作为程序运行") {
		t.Errorf("flag: got %q, want the Chinese words", got)
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
	if d.Find(`form button[data-testid="approval-approve"]`).Length() != 1 || d.Find(`form button[data-testid="approval-reject"]`).Length() != 1 {
		t.Errorf("the buttons are not inside the form carrying the fingerprint")
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

// TestApprovalDialogOffersDecideLater: U10. Beside the two answers the
// dialog offers "Decide later", which posts nothing (approval.js only
// hides the dialog), comes after the answers so focus still lands on
// Reject, and is worded in every language.
func TestApprovalDialogOffersDecideLater(t *testing.T) {
	s := pendingStatus(t, "helper")
	for lang, want := range map[string]string{"en": "Decide later", "pt-BR": "Decidir depois", "zh-Hans": "稍后决定"} {
		doc := renderComponent(t, lang, views.ApprovalDialog(views.NewApprovalProps([]domain.Status{s}, approveAt, rejectAt, false)))
		b := doc.Find(`[data-testid="approval-dialog"] form button[data-testid="approval-later"]`)
		if b.Length() != 1 {
			t.Fatalf("%s: got %d Decide later buttons, want 1", lang, b.Length())
		}
		if got := strings.TrimSpace(b.Text()); got != want {
			t.Errorf("%s: label got %q, want %q", lang, got, want)
		}
		if typ, _ := b.Attr("type"); typ != "button" {
			t.Errorf("%s: type got %q, want button (never submits)", lang, typ)
		}
		for _, a := range []string{"hx-post", "hx-get", "formaction"} {
			if v, ok := b.Attr(a); ok {
				t.Errorf("%s: Decide later carries %s=%q; postponing must reach no server", lang, a, v)
			}
		}
		if got, _ := doc.Find(`[data-testid="approval-dialog"] button`).Last().Attr("data-testid"); got != "approval-later" {
			t.Errorf("%s: last button got %q, want approval-later after the two answers", lang, got)
		}
	}
}
