package views_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

func TestRelativeTimeFallback(t *testing.T) {
	tests := []struct {
		name string
		at   time.Duration // relative to testNow
		want views.Message
	}{
		{"now", 0, views.Message{ID: "RelNow"}},
		{"rounds sub-second to now", -400 * time.Millisecond, views.Message{ID: "RelNow"}},
		{"seconds ago", -2 * time.Second, views.Message{ID: "RelSecondsAgo", Data: map[string]any{"Count": int64(2)}}},
		{"seconds ahead", 4 * time.Second, views.Message{ID: "RelSecondsIn", Data: map[string]any{"Count": int64(4)}}},
		{"minutes ago", -150 * time.Second, views.Message{ID: "RelMinutesAgo", Data: map[string]any{"Count": int64(2)}}},
		{"hours ago", -3 * time.Hour, views.Message{ID: "RelHoursAgo", Data: map[string]any{"Count": int64(3)}}},
		{"days ago", -49 * time.Hour, views.Message{ID: "RelDaysAgo", Data: map[string]any{"Count": int64(2)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := views.NewTimeProps(testNow.Add(tt.at), testNow)
			if !reflect.DeepEqual(got.Relative, tt.want) {
				t.Errorf("got %+v, want %+v", got.Relative, tt.want)
			}
			if want := testNow.Add(tt.at).UnixMilli(); got.EpochMS != want {
				t.Errorf("epoch ms: got %d, want %d", got.EpochMS, want)
			}
		})
	}
}

func TestNewTooltipProps(t *testing.T) {
	exit := 1
	failed := domain.Status{
		State: domain.StateError, Phase: domain.PhaseWaiting, Error: "exited (code 1)", ErrorCategory: domain.CategoryExited,
		ExitCode: &exit, LastErrorAt: testNow.Add(-3 * time.Second), Retryable: true, AutoReconnect: true,
		NextRetryAt: testNow.Add(4 * time.Second), Attempt: 2, MaxAttempts: 5, LastSyncAt: testNow.Add(-time.Minute),
	}
	tests := []struct {
		name                            string
		in                              domain.Status
		wantError, wantRetry, countdown bool
		wantSync, wantLatency           bool
	}{
		{"connected has no error", domain.Status{State: domain.StateConnected, LastSyncAt: testNow, HasLatency: true, Latency: 3 * time.Millisecond},
			false, false, false, true, true},
		// The domain clears every error on connect; a connected
		// server's error is a failed re-list, shown without any retry.
		{"connected shows a re-list error, no retry", domain.Status{State: domain.StateConnected, Error: "re-list tools: boom"}, true, false, false, false, false},
		{"first connect has nothing yet", domain.Status{State: domain.StateConnecting}, false, false, false, false, false},
		{"error with retry counts down", failed, true, true, true, true, false},
		{"error without retry", with(failed, func(s *domain.Status) { s.Retryable = false; s.NextRetryAt = time.Time{} }), true, true, false, true, false},
		{"error with autoReconnect off", with(failed, func(s *domain.Status) { s.AutoReconnect = false }), true, true, false, true, false},
		{"reconnecting keeps the error, no countdown", with(failed, func(s *domain.Status) { s.State = domain.StateConnecting }), true, false, false, true, false},
		{"auto-disabled says no retry", with(failed, func(s *domain.Status) { s.State = domain.StateDisabled; s.DisabledReason = domain.DisabledAuto }),
			true, true, false, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := views.NewTooltipProps(tt.in, testNow)
			if got := p.HasError(); got != tt.wantError {
				t.Errorf("error shown: got %v, want %v", got, tt.wantError)
			}
			if got := p.LastErrorAt != nil; got != (tt.wantError && !tt.in.LastErrorAt.IsZero()) {
				t.Errorf("last error time shown: got %v", got)
			}
			if got := p.Retry != nil; got != tt.wantRetry {
				t.Fatalf("retry shown: got %v, want %v", got, tt.wantRetry)
			}
			if p.Retry != nil {
				if got := p.Retry.Deadline != nil; got != tt.countdown {
					t.Errorf("countdown: got %v, want %v", got, tt.countdown)
				}
			}
			if got := p.LastSync != nil; got != tt.wantSync {
				t.Errorf("last sync shown: got %v, want %v", got, tt.wantSync)
			}
			if got := p.Latency != nil; got != tt.wantLatency {
				t.Errorf("latency shown: got %v, want %v", got, tt.wantLatency)
			}
		})
	}
}

func TestLatencyFormatting(t *testing.T) {
	for _, tt := range []struct {
		in   time.Duration
		want string
	}{{1234 * time.Microsecond, "1.2"}, {250 * time.Microsecond, "0.3"}, {42600 * time.Microsecond, "43"}} {
		p := views.NewTooltipProps(domain.Status{State: domain.StateConnected, HasLatency: true, Latency: tt.in}, testNow)
		if got := p.Latency.Text.Data["MS"]; got != tt.want {
			t.Errorf("latency %v: got %v, want %s", tt.in, got, tt.want)
		}
	}
}

func with(s domain.Status, change func(*domain.Status)) domain.Status {
	change(&s)
	return s
}

// A config error is not retried, so its tooltip never counts attempts
// towards an auto-disable that cannot happen.
func TestTooltipPermanentErrorHasNoAttemptCount(t *testing.T) {
	st := domain.Status{State: domain.StateError, Error: "config: no such file", ErrorCategory: domain.CategoryConfig,
		Attempt: 1, MaxAttempts: 5, Retryable: false}
	if p := views.NewTooltipProps(st, testNow); p.Attempt != nil || p.Retry == nil {
		t.Errorf("permanent error: attempt %v, retry %v; want no attempt count and the no-retry line", p.Attempt, p.Retry)
	}
	st.Retryable, st.ErrorCategory = true, domain.CategoryExited
	if p := views.NewTooltipProps(st, testNow); p.Attempt == nil {
		t.Errorf("retryable error: no attempt count, want attempt 1 of 5")
	}
}
