package views_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

// A starting stdio server's tooltip says "starting · 12 s" with a counter
// the page's script keeps going, and shows what the process last wrote.
func TestTooltipShowsStartingSecondsAndLastStderr(t *testing.T) {
	since := testNow.Add(-12 * time.Second)
	st := domain.Status{ServerName: "npx", Transport: domain.TransportStdio, State: domain.StateConnecting,
		Phase: domain.PhaseConnecting, StartingSince: since, LastStderr: "npm warn exec installing <pkg>"}
	tests := []struct{ lang, starting, label string }{
		{"en", "starting · 12 s", "Last output on stderr"},
		{"pt-BR", "iniciando · 12 s", "Última saída em stderr"},
		{"zh-Hans", "正在启动 · 12 秒", "stderr 最后的输出"},
	}
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			tip := chipDoc(t, tt.lang, st).Find(`[data-testid="tooltip"]`)
			starting := tip.Find(`[data-testid="tooltip-starting"]`)
			if got := strings.Join(strings.Fields(starting.Text()), " "); got != tt.starting {
				t.Errorf("starting: got %q, want %q", got, tt.starting)
			}
			counter := starting.Find("[data-since]")
			if v, _ := counter.Attr("data-since"); v != strconv.FormatInt(since.UnixMilli(), 10) {
				t.Errorf("data-since %q, want %d", v, since.UnixMilli())
			}
			row := tip.Find(`[data-testid="tooltip-last-stderr"]`)
			if got := row.Find(".tip-label").Text(); got != tt.label {
				t.Errorf("label: got %q, want %q", got, tt.label)
			}
			if got := row.Find("code").Text(); got != "npm warn exec installing <pkg>" {
				t.Errorf("line: got %q", got)
			}
			if tip.Find(`[data-testid="tooltip-error"]`).Length() != 0 {
				t.Error("a first start shows an error block")
			}
		})
	}
	// A remote server, or a connected one, is not starting anything.
	for _, s := range []domain.Status{
		with(st, func(s *domain.Status) { s.StartingSince = time.Time{} }),
		with(st, func(s *domain.Status) { s.State = domain.StateConnected }),
	} {
		if p := views.NewTooltipProps(s, testNow); p.Starting != nil || p.LastStderr != "" {
			t.Errorf("%s since %v: starting %+v line %q, want neither", s.State, s.StartingSince, p.Starting, p.LastStderr)
		}
	}
}

// A kill by a signal reads as such in each language, and the server's last
// stderr line sits apart from it, labelled as context; a cut-off start
// names its limit and setting.
func TestTooltipLocalizesKillsAndTimeouts(t *testing.T) {
	code := -1
	killed := domain.Status{ServerName: "fs", Transport: domain.TransportStdio, State: domain.StateError,
		Phase: domain.PhaseWaiting, Error: "killed by SIGKILL", ErrorCategory: domain.CategoryExited, ExitCode: &code,
		Signal: "SIGKILL", ErrorStderr: "Secure MCP Filesystem Server running on stdio", Retryable: true}
	timedOut := domain.Status{ServerName: "npx", Transport: domain.TransportStdio, State: domain.StateError,
		Phase: domain.PhaseWaiting, Error: "no answer to initialize within 2m0s (startTimeoutSeconds)",
		ErrorCategory: domain.CategoryTimeout, TimeoutLimit: 2 * time.Minute, TimeoutSetting: "startTimeoutSeconds", Retryable: true}
	tests := []struct {
		lang string
		in   domain.Status
		want string
	}{
		{"en", killed, "killed by SIGKILL"},
		{"pt-BR", killed, "encerrado pelo sinal SIGKILL"},
		{"zh-Hans", killed, "被信号 SIGKILL 终止"},
		{"en", timedOut, "no answer within 120 s (startTimeoutSeconds)"},
		{"pt-BR", timedOut, "sem resposta em 120 s (startTimeoutSeconds)"},
		{"zh-Hans", timedOut, "120 秒内无应答（startTimeoutSeconds）"},
	}
	for _, tt := range tests {
		t.Run(tt.lang+"-"+string(tt.in.ErrorCategory), func(t *testing.T) {
			tip := chipDoc(t, tt.lang, tt.in).Find(`[data-testid="tooltip"]`)
			if got := tip.Find(`[data-testid="tooltip-error"] .tip-value`).Text(); got != tt.want {
				t.Errorf("error: got %q, want %q", got, tt.want)
			}
			line := tip.Find(`[data-testid="tooltip-last-stderr"] code`).Text()
			if line != tt.in.ErrorStderr {
				t.Errorf("stderr context: got %q, want %q", line, tt.in.ErrorStderr)
			}
			doc := renderDrawerPart(t, tt.lang, views.DrawerHeader(views.NewDrawerHeaderProps(tt.in), false))
			if got := doc.Find(`[data-testid="drawer-error-message"]`).Text(); got != tt.want {
				t.Errorf("drawer error: got %q, want %q", got, tt.want)
			}
			if got := doc.Find(`[data-testid="drawer-error-stderr"] code`).Text(); got != tt.in.ErrorStderr {
				t.Errorf("drawer stderr context: got %q, want %q", got, tt.in.ErrorStderr)
			}
		})
	}
}

// Slow starts back off without counting toward auto-disable, so the
// attempt number can pass the count: "attempt 7 of 5" is never shown.
func TestTooltipHidesAttemptPastTheCount(t *testing.T) {
	s := domain.Status{State: domain.StateError, Error: "x", Retryable: true, Attempt: 7, MaxAttempts: 5}
	if p := views.NewTooltipProps(s, testNow); p.Attempt != nil {
		t.Errorf("attempt %+v shown past the count", p.Attempt)
	}
}
