package views_test

import (
	"strings"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

// An outage of the path to a server never auto-disables it, so
// its tooltip never counts "attempt N of 5"; at the backoff's ceiling it
// says the retries go on every 30 s. A crash loop still counts.
func TestTooltipSaysRetryingEveryAtTheCeiling(t *testing.T) {
	outage := domain.Status{ServerName: "remote", Transport: domain.TransportHTTP, State: domain.StateError,
		Phase: domain.PhaseWaiting, Error: "refused: connection refused", ErrorCategory: domain.CategoryRefused,
		Retryable: true, AutoReconnect: true, Attempt: 9, MaxAttempts: 0, Delay: 30 * time.Second,
		NextRetryAt: testNow.Add(30 * time.Second), RetryEvery: 30 * time.Second, LastErrorAt: testNow}
	tests := []struct {
		name, lang string
		in         domain.Status
		want       string // the text beside the state; empty: none
	}{
		{"ceiling-en", "en", outage, "retrying every 30 s"},
		{"ceiling-pt-BR", "pt-BR", outage, "tentando de novo a cada 30 s"},
		{"ceiling-zh-Hans", "zh-Hans", outage, "每 30 秒重试一次"},
		{"ceiling-while-connecting", "en", with(outage, func(s *domain.Status) {
			s.State, s.Phase, s.NextRetryAt = domain.StateConnecting, domain.PhaseConnecting, time.Time{}
		}), "retrying every 30 s"},
		{"below-ceiling-says-nothing", "en", with(outage, func(s *domain.Status) {
			s.Attempt, s.Delay, s.RetryEvery = 3, 4*time.Second, 0
		}), ""},
		{"crash-loop-counts", "en", with(outage, func(s *domain.Status) {
			s.ErrorCategory, s.Attempt, s.MaxAttempts, s.RetryEvery = domain.CategoryExited, 2, 5, 0
		}), "attempt 2 of 5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tip := chipDoc(t, tt.lang, tt.in).Find(`[data-testid="tooltip-state"] .tip-sub`)
			if got := strings.TrimSpace(tip.Text()); got != tt.want {
				t.Errorf("beside the state: got %q, want %q", got, tt.want)
			}
		})
	}
}

// A connected server whose re-list failed stays green with its
// last good lists, and its tooltip shows the error, with no retry line.
func TestTooltipShowsRelistErrorOfConnectedServer(t *testing.T) {
	st := domain.Status{ServerName: "a", State: domain.StateConnected, Phase: domain.PhaseConnected, ToolCount: 3,
		MaxAttempts: 5, Error: "re-list tools: internal error", ErrorCategory: domain.CategoryProtocol,
		LastErrorAt: testNow.Add(-2 * time.Second), ConnectedAt: testNow.Add(-time.Minute)}
	chip := chipDoc(t, "en", st)
	if got, _ := chip.Attr("data-state"); got != "connected" {
		t.Errorf("chip state %q, want connected", got)
	}
	tip := chip.Find(`[data-testid="tooltip"]`)
	if got := tip.Find(`[data-testid="tooltip-error"] .tip-value`).Text(); got != st.Error {
		t.Errorf("error row %q, want %q", got, st.Error)
	}
	if n := tip.Find(`[data-testid="tooltip-retry"], [data-testid="tooltip-state"] .tip-sub`).Length(); n != 0 {
		t.Errorf("%d retry or attempt parts on a connected server, want none", n)
	}
	p := views.NewTooltipProps(with(st, func(s *domain.Status) { s.Error, s.ErrorCategory, s.LastErrorAt = "", "", time.Time{} }), testNow)
	if p.HasError() || p.LastErrorAt != nil {
		t.Errorf("connected without an error: %+v, want no error block", p)
	}
}
