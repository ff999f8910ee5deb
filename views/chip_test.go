package views_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

func chipDoc(t *testing.T, lang string, s domain.Status) *goquery.Selection {
	t.Helper()
	p := views.NewChipPropsAt(s, testNow).At(views.PlaceHeader, "/ui/servers/x/drawer")
	doc := renderComponent(t, lang, views.StatusChip(p))
	chip := doc.Find(`[data-testid="status-chip"]`)
	if chip.Length() != 1 {
		t.Fatalf("status chips: got %d, want 1", chip.Length())
	}
	return chip
}

func TestChipBadgeInEveryLanguage(t *testing.T) {
	tests := []struct {
		lang  string
		in    domain.Status
		badge string
		dot   string
	}{
		{"en", domain.Status{State: domain.StateConnected, ToolCount: 1}, "1 tool", "connected"},
		{"en", domain.Status{State: domain.StateConnected, ToolCount: 12}, "12 tools", "connected"},
		{"en", domain.Status{State: domain.StateConnected, ToolCount: 0}, "0 tools", "connected"},
		{"en", domain.Status{State: domain.StateConnecting, Attempt: 1, Error: "x"}, "reconnecting…", "connecting"},
		{"en", domain.Status{State: domain.StateError, ErrorCategory: domain.CategoryTimeout, Error: "t"}, "error: timeout", "error"},
		{"en", domain.Status{State: domain.StateDisabled, DisabledReason: domain.DisabledManual}, "disabled", "disabled"},
		{"pt-BR", domain.Status{State: domain.StateConnected, ToolCount: 1}, "1 ferramenta", "conectado"},
		{"pt-BR", domain.Status{State: domain.StateConnected, ToolCount: 12}, "12 ferramentas", "conectado"},
		{"pt-BR", domain.Status{State: domain.StateConnecting, Attempt: 1}, "reconectando…", "conectando"},
		{"pt-BR", domain.Status{State: domain.StateError, ErrorCategory: domain.CategoryTimeout, Error: "t"}, "erro: timeout", "erro"},
		{"zh-Hans", domain.Status{State: domain.StateConnected, ToolCount: 1}, "1 个工具", "已连接"},
		{"zh-Hans", domain.Status{State: domain.StateConnected, ToolCount: 12}, "12 个工具", "已连接"},
		{"zh-Hans", domain.Status{State: domain.StateDisabled}, "已停用", "已停用"},
	}
	for _, tt := range tests {
		t.Run(tt.lang+"/"+tt.badge, func(t *testing.T) {
			tt.in.ServerName = "files"
			chip := chipDoc(t, tt.lang, tt.in)
			if got := chip.Find(`[data-testid="chip-badge"]`).Text(); got != tt.badge {
				t.Errorf("badge: got %q, want %q", got, tt.badge)
			}
			dot := chip.Find(`[data-testid="chip-dot"]`)
			if got, _ := dot.Attr("aria-label"); got != tt.dot {
				t.Errorf("dot label: got %q, want %q", got, tt.dot)
			}
			if got, _ := dot.Attr("role"); got != "img" {
				t.Errorf("dot role: got %q, want img", got)
			}
		})
	}
}

func TestChipContract(t *testing.T) {
	chip := chipDoc(t, "en", domain.Status{ServerName: "files", State: domain.StateConnected})
	for attr, want := range map[string]string{"role": "status", "aria-live": "polite", "data-server": "files", "data-state": "connected",
		"id": "chip-h-" + views.ServerKey("files")} {
		if got, _ := chip.Attr(attr); got != want {
			t.Errorf("chip %s: got %q, want %q", attr, got, want)
		}
	}
	btn := chip.Find(`button[data-testid="chip-button"]`)
	tip := chip.Find(`[data-testid="tooltip"]`)
	tipID, _ := tip.Attr("id")
	for attr, want := range map[string]string{"aria-haspopup": "dialog", "aria-describedby": tipID, "hx-get": "/ui/servers/x/drawer",
		"hx-target": "#drawer-slot", "type": "button"} {
		if got, _ := btn.Attr(attr); got != want {
			t.Errorf("button %s: got %q, want %q", attr, got, want)
		}
	}
	if got, _ := tip.Attr("role"); got != "tooltip" {
		t.Errorf("tooltip role: got %q, want tooltip", got)
	}
	if tipID == "" || !strings.HasPrefix(tipID, "tip-h-") {
		t.Errorf("tooltip id: got %q, want one with the header prefix", tipID)
	}
	if _, ok := chip.Attr("hx-swap-oob"); ok {
		t.Errorf("a page chip carries hx-swap-oob")
	}
}

func TestChipIDsDifferByPlacement(t *testing.T) {
	s := domain.Status{ServerName: "files", State: domain.StateConnected}
	doc := render(t, "en", views.NewPageProps(views.PageInput{URLs: testURLs, Now: testNow, List: []domain.Status{s}}))
	seen := map[string]bool{}
	doc.Find("[id]").Each(func(_ int, el *goquery.Selection) {
		id, _ := el.Attr("id")
		if seen[id] {
			t.Errorf("id %q appears twice", id)
		}
		seen[id] = true
	})
	doc.Find(`[data-testid="chip-button"]`).Each(func(_ int, b *goquery.Selection) {
		ref, _ := b.Attr("aria-describedby")
		if doc.Find("#"+ref).Length() != 1 {
			t.Errorf("aria-describedby %q names no element", ref)
		}
	})
}

func TestTooltipFieldsPerState(t *testing.T) {
	exit := 1
	failed := domain.Status{
		ServerName: "flaky", State: domain.StateError, Phase: domain.PhaseWaiting, Error: "exited (code 1): simulated crash",
		ErrorCategory: domain.CategoryExited, ExitCode: &exit, LastErrorAt: testNow.Add(-3 * time.Second), Retryable: true,
		AutoReconnect: true, NextRetryAt: testNow.Add(4 * time.Second), Attempt: 1, MaxAttempts: 5,
		ToolCount: 12, ResourceCount: 3, PromptCount: 2, LastSyncAt: testNow.Add(-2 * time.Second),
	}
	errorFields := []string{"tooltip-error", "tooltip-category", "tooltip-last-error-at", "tooltip-retry"}

	t.Run("error", func(t *testing.T) {
		tip := chipDoc(t, "en", failed).Find(`[data-testid="tooltip"]`)
		for _, id := range append([]string{"tooltip-state", "tooltip-counts", "tooltip-last-sync"}, errorFields...) {
			if tip.Find(`[data-testid="`+id+`"]`).Length() != 1 {
				t.Errorf("%s missing", id)
			}
		}
		if got := tip.Find(`[data-testid="tooltip-error"] .tip-value`).Text(); got != failed.Error {
			t.Errorf("error text: got %q, want %q", got, failed.Error)
		}
		if got := tip.Find(`[data-testid="tooltip-counts"]`).Text(); !strings.Contains(got, "12 tools") || !strings.Contains(got, "3 resources") || !strings.Contains(got, "2 prompts") {
			t.Errorf("counts: got %q", got)
		}
		retry := tip.Find(`[data-testid="tooltip-retry"]`)
		if got, _ := retry.Attr("data-deadline"); got != strconv.FormatInt(testNow.Add(4*time.Second).UnixMilli(), 10) {
			t.Errorf("retry deadline: got %q, want the retry time", got)
		}
		if got := retry.Find("time").Text(); got != "in 4 seconds" {
			t.Errorf("retry fallback: got %q, want %q", got, "in 4 seconds")
		}
		at := tip.Find(`[data-testid="tooltip-last-error-at"]`)
		if got, _ := at.Attr("data-time"); got != strconv.FormatInt(failed.LastErrorAt.UnixMilli(), 10) {
			t.Errorf("last error data-time: got %q", got)
		}
		if got, _ := at.Find("time").Attr("datetime"); got != "2026-11-30T08:59:57Z" {
			t.Errorf("last error datetime: got %q", got)
		}
		if got := tip.Find(`[data-testid="tooltip-last-sync"] time`).Text(); got != "2 seconds ago" {
			t.Errorf("last sync: got %q, want 2 seconds ago", got)
		}
	})

	t.Run("permanent error says no retry", func(t *testing.T) {
		s := with(failed, func(s *domain.Status) { s.Retryable = false; s.Phase = domain.PhaseExhausted })
		retry := chipDoc(t, "pt-BR", s).Find(`[data-testid="tooltip-retry"]`)
		if _, ok := retry.Attr("data-deadline"); ok {
			t.Errorf("a permanent error has a countdown")
		}
		if got := strings.TrimSpace(retry.Text()); got != "Sem nova tentativa automática" {
			t.Errorf("no-retry text: got %q", got)
		}
	})

	t.Run("connected after error shows none of it", func(t *testing.T) {
		s := domain.Status{ServerName: "flaky", State: domain.StateConnected, ToolCount: 12, LastSyncAt: testNow,
			HasLatency: true, Latency: 1500 * time.Microsecond}
		tip := chipDoc(t, "zh-Hans", s).Find(`[data-testid="tooltip"]`)
		for _, id := range errorFields {
			if tip.Find(`[data-testid="`+id+`"]`).Length() != 0 {
				t.Errorf("%s still shown after reconnect", id)
			}
		}
		if got := tip.Find(`[data-testid="tooltip-latency"] .tip-value`).Text(); got != "1.5 毫秒" {
			t.Errorf("latency: got %q, want 1.5 毫秒", got)
		}
		if got := tip.Find(`[data-testid="tooltip-last-sync"] time`).Text(); got != "现在" {
			t.Errorf("last sync: got %q, want 现在", got)
		}
	})
}

func TestChipWithoutTooltipOrDrawer(t *testing.T) {
	doc := renderComponent(t, "en", views.StatusChip(views.NewChipProps(domain.Status{ServerName: "a", State: domain.StateConnected})))
	if doc.Find(`[data-testid="tooltip"]`).Length() != 0 || doc.Find(`[aria-describedby]`).Length() != 0 {
		t.Errorf("a chip without tooltip props renders or references one")
	}
	if doc.Find(`button`).Length() != 0 {
		t.Errorf("a chip without a drawer URL renders a button that does nothing")
	}
}
