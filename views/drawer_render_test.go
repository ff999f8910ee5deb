package views_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/a-h/templ"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/locales"
	"github.com/switchboard-mcp/switchboard/views"
)

// renderDrawerPart renders one component in lang and parses the result.
func renderDrawerPart(t testing.TB, lang string, c templ.Component) *goquery.Document {
	t.Helper()
	cat, err := locales.Load()
	if err != nil {
		t.Fatal(err)
	}
	ctx := locales.WithLocalizer(context.Background(), cat.Localizer(lang))
	var buf bytes.Buffer
	if err := c.Render(ctx, &buf); err != nil {
		t.Fatalf("render: %v", err)
	}
	doc, err := goquery.NewDocumentFromReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

var drawerTestURLs = views.DrawerURLs{Live: "/d?part=live", Restart: "/r", Disable: "/x", Enable: "/e", Settings: "/s", Remove: "/rm"}

func drawerSampleCaps() domain.Capabilities {
	return domain.Capabilities{
		Tools: []domain.Tool{
			{Name: "read_file", Title: "Read file", Description: "Reads a file.", Annotations: domain.Annotations{ReadOnlyHint: drawerPtr(true)}},
			{Name: "delete_file", Annotations: domain.Annotations{DestructiveHint: drawerPtr(true), IdempotentHint: drawerPtr(true)}},
			{Name: "fetch", Annotations: domain.Annotations{OpenWorldHint: drawerPtr(true)}},
		},
		Resources:         []domain.Resource{{URI: "file:///notes.md", Name: "notes", MIMEType: "text/markdown", Size: drawerPtr(int64(1536))}},
		ResourceTemplates: []domain.ResourceTemplate{{URITemplate: "file:///{path}", Name: "file"}},
		Prompts: []domain.Prompt{{Name: "summarize", Description: "Summarizes text.",
			Arguments: []domain.PromptArgument{{Name: "text", Required: true}, {Name: "style"}}}},
	}
}

func drawerConnected(name string) domain.Status {
	return domain.Status{ServerName: name, State: domain.StateConnected, Phase: domain.PhaseConnected, Transport: domain.TransportStdio,
		Target: "npx -y @example/files", ProtocolVersion: "2025-11-25", ToolCount: 3, ResourceCount: 1, PromptCount: 1,
		AutoReconnect: true, KeepAlive: 30e9, Version: 7}
}

func TestDrawerRendersConnectedServer(t *testing.T) {
	doc := renderDrawerPart(t, "en", views.Drawer(views.NewDrawerProps(drawerConnected("files"), drawerSampleCaps(), []string{"one", "two"}, drawerTestURLs)))
	d := doc.Find(`[data-testid="drawer"][data-server="files"]`)
	if d.Length() != 1 {
		t.Fatalf("got %d drawers, want 1", d.Length())
	}
	if role, _ := d.Attr("role"); role != "dialog" {
		t.Errorf("got role %q, want dialog", role)
	}
	if modal, _ := d.Attr("aria-modal"); modal != "true" {
		t.Errorf("got aria-modal %q, want true", modal)
	}
	labelledBy, _ := d.Attr("aria-labelledby")
	if got := doc.Find("#" + labelledBy).Text(); got != "files" {
		t.Errorf("got title %q via aria-labelledby, want files", got)
	}
	checks := map[string]string{
		`[data-testid="drawer-target"]`:          "npx -y @example/files",
		`[data-testid="drawer-transport"]`:       "stdio (local process)",
		`[data-testid="drawer-protocol"]`:        "2025-11-25",
		`[data-testid="stderr"]`:                 "one\ntwo",
		`.drawer-state [data-testid=chip-badge]`: "3 tools",
	}
	for sel, want := range checks {
		if got := strings.TrimSpace(doc.Find(sel).Text()); got != want {
			t.Errorf("%s: got %q, want %q", sel, got, want)
		}
	}
	if doc.Find(`[data-testid="drawer-error"]`).Length() != 0 {
		t.Errorf("got an error in a connected header, want none")
	}
	if doc.Find(`[data-testid="drawer-header"] .dot.dot-connected[role="img"]`).Length() != 1 {
		t.Errorf("got no connected dot in the header")
	}
	if doc.Find(`[data-testid="drawer-close"]`).Length() != 1 {
		t.Errorf("got no close button")
	}
	if doc.Find(`[hx-swap-oob]`).Length() != 0 {
		t.Errorf("got out-of-band markers in a drawer rendered in place")
	}
}

func TestDrawerCapabilitySections(t *testing.T) {
	doc := renderDrawerPart(t, "en", views.Drawer(views.NewDrawerProps(drawerConnected("files"), drawerSampleCaps(), nil, drawerTestURLs)))
	sections := []struct {
		testid string
		count  string
		items  string
		open   bool
	}{
		{"caps-tools", "3", "tool-item", true},
		{"caps-resources", "1", "resource-item", false},
		{"caps-templates", "1", "template-item", false},
		{"caps-prompts", "1", "prompt-item", false},
	}
	for _, s := range sections {
		sec := doc.Find(`details[data-testid="` + s.testid + `"]`)
		if got := sec.Find("summary .count").Text(); got != s.count {
			t.Errorf("%s: got count %q, want %q", s.testid, got, s.count)
		}
		if _, open := sec.Attr("open"); open != s.open {
			t.Errorf("%s: got open %v, want %v", s.testid, open, s.open)
		}
		items := sec.Find(`[data-testid="` + s.items + `"]`)
		if items.Length() == 0 {
			t.Errorf("%s: got no items", s.testid)
		}
		if ti, _ := items.First().Attr("tabindex"); ti != "0" {
			t.Errorf("%s: got first tabindex %q, want 0", s.testid, ti)
		}
	}
	del := doc.Find(`[data-testid="tool-item"]`).Eq(1)
	var tags []string
	del.Find(`[data-testid="tool-tag"]`).Each(func(_ int, s *goquery.Selection) {
		k, _ := s.Attr("data-tag")
		tags = append(tags, k+"="+s.Text())
	})
	if got, want := strings.Join(tags, ","), "destructive=destructive,idempotent=idempotent"; got != want {
		t.Errorf("got tags %q, want %q", got, want)
	}
	if ti, _ := del.Attr("tabindex"); ti != "-1" {
		t.Errorf("got second tool tabindex %q, want -1", ti)
	}
	risk := del.Find(`[data-testid="tool-risk"]`)
	if r, _ := risk.Attr("data-risk"); r != "high" || risk.Text() != "high risk" {
		t.Errorf("got risk %q %q, want high, high risk", r, risk.Text())
	}
	if got := doc.Find(`[data-testid="resource-size"]`).Text(); got != "1.5 KiB" {
		t.Errorf("got size %q, want 1.5 KiB", got)
	}
	args := doc.Find(`[data-testid="prompt-arg"]`)
	if r, _ := args.Eq(0).Attr("data-required"); r != "true" || !strings.Contains(args.Eq(0).Text(), "required") {
		t.Errorf("got first arg required=%q %q, want true and the word", r, args.Eq(0).Text())
	}
	if r, _ := args.Eq(1).Attr("data-required"); r != "false" {
		t.Errorf("got second arg required=%q, want false", r)
	}
	if doc.Find(`[data-testid="caps-hidden"]`).Length() != 0 {
		t.Errorf("got caps-hidden for a connected server")
	}
}

func TestDrawerPerState(t *testing.T) {
	tests := []struct {
		name       string
		st         domain.Status
		hidden     bool
		toggle     string
		errorShown bool
	}{
		{"connected", drawerConnected("s"), false, "action-disable", false},
		{"error", domain.Status{ServerName: "s", State: domain.StateError, Error: "exited (code 1)", ErrorCategory: domain.CategoryExited,
			LastErrorAt: drawerFailedAt, Transport: domain.TransportStdio}, false, "action-disable", true},
		{"disabled", domain.Status{ServerName: "s", State: domain.StateDisabled, DisabledReason: domain.DisabledManual,
			Transport: domain.TransportStdio}, true, "action-enable", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := renderDrawerPart(t, "en", views.Drawer(views.NewDrawerProps(tt.st, drawerSampleCaps(), nil, drawerTestURLs)))
			if got := doc.Find(`[data-testid="caps-hidden"]`).Length() == 1; got != tt.hidden {
				t.Errorf("got caps-hidden %v, want %v", got, tt.hidden)
			}
			if tt.hidden && doc.Find(`[data-testid="tool-item"]`).Length() != 0 {
				t.Errorf("got tool items while disabled")
			}
			if doc.Find(`[data-testid="`+tt.toggle+`"]`).Length() != 1 {
				t.Errorf("got no %s", tt.toggle)
			}
			if doc.Find(`[data-testid="action-enable"]`).Length()+doc.Find(`[data-testid="action-disable"]`).Length() != 1 {
				t.Errorf("got both or neither of enable and disable")
			}
			if got := doc.Find(`[data-testid="drawer-error"]`).Length() == 1; got != tt.errorShown {
				t.Errorf("got error shown %v, want %v", got, tt.errorShown)
			}
			if doc.Find(`[data-testid="action-restart"]`).Length() != 1 || doc.Find(`[data-testid="action-remove"]`).Length() != 1 {
				t.Errorf("got no restart or remove button")
			}
		})
	}
}

func TestDrawerErrorHeader(t *testing.T) {
	st := domain.Status{ServerName: "s", State: domain.StateError, Error: "exited (code 1)", ErrorCategory: domain.CategoryExited,
		LastErrorAt: drawerFailedAt, Transport: domain.TransportStdio, Version: 9}
	doc := renderDrawerPart(t, "pt-BR", views.DrawerHeader(views.NewDrawerHeaderProps(st), true))
	h := doc.Find(`[data-testid="drawer-header"]`)
	if oob, _ := h.Attr("hx-swap-oob"); oob != "outerHTML" {
		t.Errorf("got hx-swap-oob %q, want outerHTML", oob)
	}
	if v, _ := h.Attr("data-version"); v != "9" {
		t.Errorf("got data-version %q, want 9", v)
	}
	if got := doc.Find(`[data-testid="drawer-error-message"]`).Text(); got != "exited (code 1)" {
		t.Errorf("got message %q, want the redacted error", got)
	}
	if got := doc.Find(".drawer-error-category").Text(); !strings.Contains(got, "o processo terminou") {
		t.Errorf("got category %q, want Portuguese", got)
	}
	if ms, _ := doc.Find(`[data-testid="drawer-last-error-at"]`).Attr("data-time"); ms != fmt.Sprint(drawerFailedAt.UnixMilli()) {
		t.Errorf("got data-time %q, want %d", ms, drawerFailedAt.UnixMilli())
	}
	if doc.Find(".dot.dot-error").Length() != 1 {
		t.Errorf("got no error dot")
	}
}

func TestDrawerEscapesServerText(t *testing.T) {
	evil := `<img src=x onerror=alert(1)>`
	st := domain.Status{ServerName: evil, State: domain.StateError, Error: evil, ErrorCategory: domain.CategoryProtocol,
		Target: evil, Transport: domain.TransportStdio, ProtocolVersion: evil}
	caps := domain.Capabilities{
		Tools:     []domain.Tool{{Name: evil, Title: evil, Description: evil}},
		Resources: []domain.Resource{{URI: evil, Name: evil, MIMEType: evil}},
		Prompts:   []domain.Prompt{{Name: evil, Description: evil, Arguments: []domain.PromptArgument{{Name: evil, Description: evil}}}},
	}
	for _, c := range []templ.Component{
		views.Drawer(views.NewDrawerProps(st, caps, []string{evil}, drawerTestURLs)),
		views.ConfirmRemove(views.NewConfirmProps(evil, evil, "/rm")),
		views.Toast(views.NewToastProps("not_found", "ToastNotFound", map[string]any{"Name": evil})),
	} {
		doc := renderDrawerPart(t, "en", c)
		if doc.Find("img").Length() != 0 {
			t.Errorf("got markup from server text")
		}
		if !strings.Contains(doc.Text(), evil) {
			t.Errorf("got text without the literal name")
		}
	}
}

func drawerAttr(s *goquery.Selection, name string) string { v, _ := s.Attr(name); return v }

func TestDrawerRendersTwoHundredTools(t *testing.T) {
	doc := renderDrawerPart(t, "en", views.Drawer(views.NewDrawerProps(drawerConnected("big"), drawerManyTools(250), nil, drawerTestURLs)))
	if got := doc.Find(`[data-testid="tool-item"]`).Length(); got != 250 {
		t.Errorf("got %d tool items, want 250", got)
	}
	if got := doc.Find(`[data-testid="tool-item"][tabindex="0"]`).Length(); got != 1 {
		t.Errorf("got %d items in the tab order, want 1", got)
	}
}

func drawerManyTools(n int) domain.Capabilities {
	var caps domain.Capabilities
	for i := range n {
		caps.Tools = append(caps.Tools, domain.Tool{Name: fmt.Sprintf("tool_%03d", i), Title: "Tool", Description: "Does one thing well.",
			Annotations: domain.Annotations{ReadOnlyHint: drawerPtr(i%2 == 0), IdempotentHint: drawerPtr(true)}})
	}
	return caps
}

func BenchmarkDrawerTwoHundredTools(b *testing.B) {
	cat, err := locales.Load()
	if err != nil {
		b.Fatal(err)
	}
	ctx := locales.WithLocalizer(context.Background(), cat.Localizer("en"))
	caps := drawerManyTools(200)
	st := drawerConnected("big")
	var buf bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		p := views.NewDrawerProps(st, caps, nil, drawerTestURLs)
		if err := views.Drawer(p).Render(ctx, &buf); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "bytes/render")
}
