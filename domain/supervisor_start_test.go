package domain_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
)

func slowServer(name string, start time.Duration) domain.ServerConfig {
	c := server(name)
	c.StartTimeout = start
	c.ConnectTimeout = time.Second // bounds remote servers only
	return c
}

func remoteServer(name string, connect time.Duration) domain.ServerConfig {
	return domain.ServerConfig{Name: name, Transport: domain.TransportHTTP, URL: "http://127.0.0.1:9/mcp",
		AutoReconnect: true, ConnectTimeout: connect, StartTimeout: time.Hour}
}

// The start limit fails the attempt the moment it passes, not once the
// connector has finished stopping the process, and names the setting.
func TestStartLimitFailsWhenItPasses(t *testing.T) {
	r := newRig(t, nil)
	r.attach(slowServer("a", 5*time.Second))
	a := r.conn.Next(t)
	a.Hold() // the connector is still stopping the process when the limit passes
	st := r.waitPhase("a", domain.PhaseConnecting)
	if !st.StartingSince.Equal(epoch) {
		t.Errorf("StartingSince = %v, want %v", st.StartingSince, epoch)
	}
	r.clock.WaitForTimer(t, 5*time.Second)
	r.clock.Advance(5*time.Second - time.Millisecond)
	select {
	case <-a.Ctx.Done():
		t.Fatalf("attempt ended %v before its limit", context.Cause(a.Ctx))
	default:
	}
	r.clock.Advance(time.Millisecond)
	st = r.waitPhase("a", domain.PhaseWaiting)
	want := "no answer to initialize within 5s (startTimeoutSeconds)"
	if st.Error != want || st.ErrorCategory != domain.CategoryTimeout || !st.Retryable {
		t.Errorf("error %q (%s, retryable %v), want %q (timeout, retryable)", st.Error, st.ErrorCategory, st.Retryable, want)
	}
	if !st.LastErrorAt.Equal(epoch.Add(5*time.Second)) || st.TimeoutLimit != 5*time.Second || st.TimeoutSetting != "startTimeoutSeconds" {
		t.Errorf("at %v limit %v setting %q, want %v, 5s, startTimeoutSeconds",
			st.LastErrorAt, st.TimeoutLimit, st.TimeoutSetting, epoch.Add(5*time.Second))
	}
	if !st.StartingSince.IsZero() {
		t.Errorf("failed snapshot still starting since %v", st.StartingSince)
	}
	var hte *domain.HandshakeTimeoutError
	if cause := context.Cause(a.Ctx); !errors.As(cause, &hte) || hte.Setting != "startTimeoutSeconds" {
		t.Errorf("attempt context ended with %v, want the start timeout", cause)
	}
	a.Fail(context.Canceled) // the process is gone; nothing more to report
}

// A remote server has nothing to start: connectTimeoutSeconds bounds it.
func TestRemoteAttemptUsesConnectTimeout(t *testing.T) {
	r := newRig(t, nil)
	r.attach(remoteServer("h", 7*time.Second))
	r.conn.Next(t)
	st := r.waitPhase("h", domain.PhaseConnecting)
	if !st.StartingSince.IsZero() {
		t.Errorf("remote server starting since %v; nothing starts", st.StartingSince)
	}
	r.clock.WaitForTimer(t, 7*time.Second)
	r.clock.Advance(7 * time.Second)
	st = r.waitPhase("h", domain.PhaseWaiting)
	if want := "no answer to initialize within 7s (connectTimeoutSeconds)"; st.Error != want {
		t.Errorf("error %q, want %q", st.Error, want)
	}
}

// A start cut off by its limit counts toward auto-disable only when the
// process had also exited on its own; one that was merely slow keeps
// retrying with backoff.
func TestAutoDisableCountsCutOffStartsOnlyWhenCrashed(t *testing.T) {
	const limit = 5 * time.Second
	tests := []struct {
		name string
		cfg  domain.ServerConfig
		// end finishes attempt a: with the limit (advancing the clock) or
		// with an error before it.
		end          func(r *rig, a *domaintest.Attempt)
		wantDisabled bool
	}{
		{"slow-start-killed-by-us-never-disables", slowServer("a", limit), func(r *rig, a *domaintest.Attempt) {
			a.Hold()
			r.clock.WaitForTimer(r.t, limit)
			r.clock.Advance(limit)
			<-a.Ctx.Done() // the limit ended the attempt
			a.Fail(&domain.HandshakeTimeoutError{Limit: limit, Setting: "startTimeoutSeconds"})
		}, false},
		{"slow-start-connector-returns-at-once-never-disables", slowServer("a", limit), func(r *rig, a *domaintest.Attempt) {
			r.clock.WaitForTimer(r.t, limit)
			r.clock.Advance(limit)
		}, false},
		{"cut-off-start-that-had-exited-counts", slowServer("a", limit), func(r *rig, a *domaintest.Attempt) {
			a.Hold()
			r.clock.WaitForTimer(r.t, limit)
			r.clock.Advance(limit)
			<-a.Ctx.Done()
			a.Fail(&domain.HandshakeTimeoutError{Limit: limit, Setting: "startTimeoutSeconds", Exited: true})
		}, true},
		{"crash-before-limit-counts", slowServer("a", limit), func(r *rig, a *domaintest.Attempt) {
			a.Fail(&domain.ConnError{Category: domain.CategoryExited, ExitCode: 1, Err: domain.ErrProcessExited})
		}, true},
		// A remote server that does not answer in time is a
		// failure of the path to it, which never counts.
		{"remote-connect-timeout-never-disables", remoteServer("a", limit), func(r *rig, a *domaintest.Attempt) {
			r.clock.WaitForTimer(r.t, limit)
			r.clock.Advance(limit)
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRig(t, func(o *domain.FleetOptions) {
				o.AutoDisable = domain.AutoDisable{Threshold: 3, Window: time.Hour}
				o.Backoff = domain.Backoff{Initial: time.Second, Max: time.Second}
			})
			r.attach(tt.cfg)
			for i := range 5 {
				a := r.conn.Next(t)
				tt.end(r, a)
				st := r.waitFor("a", "the failure settled", func(s domain.Status) bool {
					return s.Phase == domain.PhaseWaiting || s.Phase == domain.PhaseExhausted
				})
				if tt.wantDisabled && i == 2 {
					if st.Phase != domain.PhaseExhausted {
						st = r.waitPhase("a", domain.PhaseExhausted)
					}
					if st.DisabledReason != domain.DisabledAuto {
						t.Fatalf("after 3 failures: reason %q, want auto", st.DisabledReason)
					}
					return
				}
				if st.Phase != domain.PhaseWaiting {
					t.Fatalf("failure %d: phase %s (%s), want waiting", i+1, st.Phase, st.Error)
				}
				r.clock.WaitForTimer(t, time.Second)
				r.clock.Advance(time.Second)
			}
			if tt.wantDisabled {
				t.Fatalf("never auto-disabled")
			}
		})
	}
}

// While a stdio server starts, its newest stderr line is published, at
// most once a second.
func TestStartingShowsLastStderrLine(t *testing.T) {
	r := newRig(t, nil)
	r.attach(server("a"))
	a := r.conn.Next(t)
	fmt.Fprintln(a.Stderr, "npm warn exec The following package was not found and will be installed")
	st := r.waitFor("a", "first line", func(s domain.Status) bool { return s.LastStderr != "" })
	if st.Phase != domain.PhaseConnecting || st.LastStderr != "npm warn exec The following package was not found and will be installed" {
		t.Errorf("phase %s line %q", st.Phase, st.LastStderr)
	}
	fmt.Fprintln(a.Stderr, "downloading")
	r.clock.WaitForTimer(t, time.Second)
	r.clock.Advance(time.Second)
	st = r.waitFor("a", "second line", func(s domain.Status) bool { return s.LastStderr == "downloading" })
	a.Succeed(domaintest.NewSession(caps("x")))
	st = r.waitPhase("a", domain.PhaseConnected)
	if st.LastStderr != "" || !st.StartingSince.IsZero() {
		t.Errorf("connected snapshot still starting: %q since %v", st.LastStderr, st.StartingSince)
	}
}

// A process killed by a signal says so; its last stderr line is context,
// kept apart from the error.
func TestSignalKillKeepsStderrAsContext(t *testing.T) {
	r := newRig(t, nil)
	r.attach(server("a"))
	a := r.conn.Next(t)
	sess := domaintest.NewSession(caps("x"))
	a.Succeed(sess)
	r.waitPhase("a", domain.PhaseConnected)
	fmt.Fprintln(a.Stderr, "Secure MCP Filesystem Server running on stdio")
	sess.Lose(&domain.ConnError{Category: domain.CategoryExited, ExitCode: -1, Signal: "SIGKILL", Err: domain.ErrProcessExited})
	st := r.waitPhase("a", domain.PhaseWaiting)
	if st.Error != "killed by SIGKILL" || st.Signal != "SIGKILL" || st.ErrorCategory != domain.CategoryExited {
		t.Errorf("error %q signal %q category %s, want killed by SIGKILL, exited", st.Error, st.Signal, st.ErrorCategory)
	}
	if st.ErrorStderr != "Secure MCP Filesystem Server running on stdio" {
		t.Errorf("ErrorStderr = %q", st.ErrorStderr)
	}
}

// startTimeoutSeconds is Switchboard's own key: a change applies without a
// reconnect, and the next start has the new limit.
func TestStartTimeoutChangeAppliesInPlace(t *testing.T) {
	r := newRig(t, nil)
	a := server("a")
	r.attach(a)
	r.clock.WaitForTimer(t, domain.DefaultStartTimeout)
	r.conn.Next(t).Succeed(domaintest.NewSession(caps("x")))
	r.waitPhase("a", domain.PhaseConnected)
	a.StartTimeout = 10 * time.Second
	res, err := r.fleet.Apply(context.Background(), []domain.ServerConfig{a})
	if err != nil || len(res.Updated) != 1 || len(res.Reconnected) != 0 {
		t.Fatalf("Apply = %+v, %v; want a updated in place", res, err)
	}
	if _, err := r.fleet.Restart(context.Background(), "a"); err != nil {
		t.Fatalf("Restart: %v", err)
	}
	at := r.conn.Next(t)
	r.clock.WaitForTimer(t, 10*time.Second)
	at.Succeed(domaintest.NewSession(caps("x")))
	r.waitPhase("a", domain.PhaseConnected)
}
