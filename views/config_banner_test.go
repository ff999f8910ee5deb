package views_test

import (
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

func TestNewConfigBannerProps(t *testing.T) {
	bad := &domain.SettingsError{File: "/a/mcp.json", Line: 3, Column: 7, Server: "files", Message: "unexpected }"}
	tests := []struct {
		name     string
		st       *domain.ConfigState
		wantShow bool
	}{
		{"demo-mode-no-reloader-no-banner", nil, false},
		{"clean-file-no-banner", &domain.ConfigState{Version: 2}, false},
		{"bad-edit-shows-banner", &domain.ConfigState{Error: bad}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := views.NewConfigBannerProps(tt.st, true)
			if p.Show != tt.wantShow {
				t.Fatalf("Show: got %v, want %v", p.Show, tt.wantShow)
			}
			if !p.OOB {
				t.Errorf("OOB: got false, want true")
			}
			if tt.wantShow && (p.File != bad.File || p.Line != 3 || p.Column != 7 || p.Server != "files" || p.Message != bad.Message) {
				t.Errorf("props: got %+v, want the error's fields", p)
			}
		})
	}
}

func TestConfigBannerEscapesAndLocalizes(t *testing.T) {
	st := &domain.ConfigState{Error: &domain.SettingsError{
		File: `/tmp/<img src=x onerror=alert(1)>.json`, Line: 12, Column: 5,
		Server: `<script>evil()</script>`, Message: `expected "," got <b>}</b>`,
	}}
	doc := renderComponent(t, "pt-BR", views.ConfigBanner(views.NewConfigBannerProps(st, false)))
	b := doc.Find(`#config-banner-slot [data-testid="config-banner"][role="alert"]`)
	if b.Length() != 1 {
		t.Fatalf("banner: got %d, want 1 inside the slot", b.Length())
	}
	for _, sel := range []string{"img", "script", "b"} {
		if n := doc.Find(sel).Length(); n != 0 {
			t.Errorf("hostile text became %d <%s> element(s)", n, sel)
		}
	}
	if got := b.Find(`[data-testid="config-banner-title"]`).Text(); !strings.Contains(got, "última configuração válida") {
		t.Errorf("title: got %q, want the Portuguese text", got)
	}
	where := b.Find(`[data-testid="config-banner-where"]`).Text()
	for _, want := range []string{`/tmp/<img src=x onerror=alert(1)>.json`, "12:5", `<script>evil()</script>`} {
		if !strings.Contains(where, want) {
			t.Errorf("where: got %q, want it to hold %q", where, want)
		}
	}
	if got := b.Find(`[data-testid="config-banner-message"]`).Text(); got != `expected "," got <b>}</b>` {
		t.Errorf("message: got %q", got)
	}
	if _, ok := doc.Find("#config-banner-slot").Attr("hx-swap-oob"); ok {
		t.Errorf("the page's own slot carries hx-swap-oob")
	}
}

func TestConfigBannerEmptySlotWithoutPosition(t *testing.T) {
	doc := renderComponent(t, "en", views.ConfigBanner(views.NewConfigBannerProps(&domain.ConfigState{}, true)))
	slot := doc.Find("#config-banner-slot")
	if got, _ := slot.Attr("hx-swap-oob"); got != "outerHTML" {
		t.Errorf("slot hx-swap-oob: got %q, want outerHTML", got)
	}
	if slot.Children().Length() != 0 {
		t.Errorf("a clean state rendered %q, want an empty slot", slot.Text())
	}
	st := &domain.ConfigState{Error: &domain.SettingsError{File: "/x.json", Message: "unreadable"}}
	where := renderComponent(t, "en", views.ConfigBanner(views.NewConfigBannerProps(st, false))).Find(`[data-testid="config-banner-where"]`).Text()
	if strings.Contains(where, "line") || !strings.Contains(where, "/x.json") {
		t.Errorf("where without a position: got %q", where)
	}
}

func TestPageShowsConfigBanner(t *testing.T) {
	st := &domain.ConfigState{Error: &domain.SettingsError{File: "/x.json", Line: 1, Column: 1, Message: "bad"}}
	doc := render(t, "en", views.NewPageProps(views.PageInput{URLs: testURLs, Now: testNow, Config: st}))
	if doc.Find(`main#main > #config-banner-slot:first-child [data-testid="config-banner"]`).Length() != 1 {
		t.Errorf("the banner is not at the top of main")
	}
	doc = render(t, "en", views.NewPageProps(views.PageInput{URLs: testURLs, Now: testNow}))
	if doc.Find("#config-banner-slot").Length() != 1 || doc.Find(`[data-testid="config-banner"]`).Length() != 0 {
		t.Errorf("without a reloader: want an empty slot and no banner")
	}
}
