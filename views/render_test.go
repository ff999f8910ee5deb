package views_test

import (
	"bytes"
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/a-h/templ"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/locales"
	"github.com/switchboard-mcp/switchboard/views"
)

// testNow is the instant every test renders at.
var testNow = time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)

var testURLs = views.PageURLs{
	Stylesheets: []string{"/static/css/app.css", "/static/css/drawer.css"},
	Scripts:     []string{"/static/js/htmx.js", "/static/js/app.js"},
	Events:      "/events",
	Preferences: "/ui/preferences",
	Drawer:      func(name string) string { return "/ui/servers/" + url.PathEscape(name) + "/drawer" },
}

func render(t *testing.T, lang string, p views.PageProps) *goquery.Document {
	t.Helper()
	return renderComponent(t, lang, views.Page(p))
}

// renderComponent renders c in lang and parses the result.
func renderComponent(t *testing.T, lang string, comp templ.Component) *goquery.Document {
	t.Helper()
	c, err := locales.Load()
	if err != nil {
		t.Fatal(err)
	}
	ctx := locales.WithLocalizer(context.Background(), c.Localizer(lang))
	var buf bytes.Buffer
	if err := comp.Render(ctx, &buf); err != nil {
		t.Fatalf("render: %v", err)
	}
	doc, err := goquery.NewDocumentFromReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func TestPageRendersChipsAndRows(t *testing.T) {
	list := []domain.Status{
		{ServerName: "alpha", State: domain.StateConnected, ToolCount: 1, Transport: domain.TransportStdio, Target: "alpha --x"},
		{ServerName: "beta", State: domain.StateError, ErrorCategory: domain.CategoryExited},
	}
	doc := render(t, "en", views.NewPageProps(views.PageInput{
		URLs: testURLs, Demo: views.DemoProps{Active: true, SettingsPath: "/home/u/.config/switchboard/settings.json"}, List: list, Now: testNow,
	}))
	if n := doc.Find(`header [data-testid="status-chip"]`).Length(); n != 0 {
		t.Errorf("header chips = %d, want none: chips live in the server list", n)
	}
	if got := doc.Find(`header [data-testid="header-summary"] .sum-long`).Text(); got != "2 servers1 connected1 failing" {
		t.Errorf("header summary %q, want 2 servers, 1 connected, 1 failing", got)
	}
	chip := doc.Find(`[data-testid="server-list"] [data-testid="status-chip"][data-server="beta"]`)
	if got := chip.Find(".chip-badge").Text(); got != "error: exited" {
		t.Errorf("beta badge %q, want %q", got, "error: exited")
	}
	if got, _ := chip.Find(".dot").Attr("aria-label"); got != "error" {
		t.Errorf("beta dot label %q, want error", got)
	}
	if got := doc.Find(`[data-server="alpha"] .chip-badge`).First().Text(); got != "1 tool" {
		t.Errorf("alpha badge %q, want 1 tool", got)
	}
	if got := doc.Find(`[data-testid="demo-notice"]`).Text(); !strings.Contains(got, "settings.json") {
		t.Errorf("demo notice %q does not name the settings path", got)
	}
	if got, _ := doc.Find("html").Attr("lang"); got != "en" {
		t.Errorf("lang %q, want en", got)
	}
}

func TestPageEscapesServerText(t *testing.T) {
	evil := `<img src=x onerror=alert(1)>`
	doc := render(t, "en", views.NewPageProps(views.PageInput{URLs: testURLs, Now: testNow, List: []domain.Status{
		{ServerName: evil, State: domain.StateError, Target: evil, Error: evil, ErrorCategory: domain.ErrorCategory(evil)},
	}}))
	if doc.Find("img").Length() != 0 {
		t.Errorf("a server name became markup")
	}
	if got := doc.Find(".chip-name").First().Text(); got != evil {
		t.Errorf("chip name %q, want the literal text", got)
	}
	if got := doc.Find(`[data-testid="tooltip-error"] .tip-value`).First().Text(); got != evil {
		t.Errorf("tooltip error %q, want the literal text", got)
	}
	if got := doc.Find(`[data-testid="row-target"]`).First().Text(); got != evil {
		t.Errorf("row target %q, want the literal text", got)
	}
}

func TestPageWithoutServers(t *testing.T) {
	doc := render(t, "pt-BR", views.NewPageProps(views.PageInput{URLs: testURLs, Now: testNow}))
	if got := doc.Find(`[data-testid="no-servers"]`).Text(); !strings.Contains(got, "Nenhum servidor") {
		t.Errorf("empty state %q, want Portuguese text", got)
	}
	if doc.Find(`[data-testid="demo-notice"]`).Length() != 0 {
		t.Errorf("demo notice shown outside demo mode")
	}
}
