package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// maxSignIns is how often the person signs in before giving up: once, and
// then once for each step-up Switchboard allows (domain.MaxStepUps = 2).
const maxSignIns = 3

// pollEvery is how often the API is asked again while something is under
// way; the daemon's own work is what takes time, not the polling.
const pollEvery = 40 * time.Millisecond

// session is one scenario driven through one switchboard.
type session struct {
	api      *api
	log      io.Writer
	scenario string

	signIns       int
	lastSignIn    time.Time
	noElicitAPI   bool            // GET /api/v1/elicitations answered 404 once
	answered      map[string]bool // elicitation ids already answered
	lastServerLog string
}

// drive waits for the server to connect (signing in when asked), then
// takes the scenario's steps; the first failed step does not stop the
// others, so that the runner sees as much as Switchboard can do.
func (s *session) drive(ctx context.Context) error {
	s.answered = map[string]bool{}
	detail, err := s.waitConnected(ctx)
	if err != nil {
		return err
	}
	var failed []string
	for _, st := range plan(s.scenario, detail) {
		if err := s.take(ctx, st); err != nil {
			fmt.Fprintf(s.log, "step %s: FAILED: %v\n", st, err)
			failed = append(failed, st.String())
			continue
		}
		fmt.Fprintf(s.log, "step %s: ok\n", st)
	}
	if len(failed) > 0 {
		return fmt.Errorf("%d step(s) failed: %s", len(failed), strings.Join(failed, ", "))
	}
	return nil
}

// waitConnected polls the server's status until it is connected, signing
// in whenever Switchboard says a person must.
func (s *session) waitConnected(ctx context.Context) (serverDetail, error) {
	for {
		d, err := s.api.server(ctx)
		var ae *apiError
		if errors.As(err, &ae) && ae.Status == http.StatusNotFound {
			// The settings file is read at start; a moment's wait is fine.
		} else if err != nil {
			return d, err
		} else {
			s.note(d)
			if d.State == "connected" {
				return d, nil
			}
			if d.Auth != nil {
				switch d.Auth.State {
				case "failed":
					return d, fmt.Errorf("sign-in failed: %s", d.Auth.Detail)
				case "needs_client_id":
					return d, errors.New("switchboard needs a client ID for this server (no registration possible)")
				}
			}
			if s.needsSignIn(d) {
				if err := s.signIn(ctx); err != nil {
					return d, err
				}
				continue
			}
			if d.Phase == "stopped" || d.Phase == "disposed" ||
				(d.Phase == "exhausted" && deref(d.ErrorCategory) != "sign_in") {
				return d, fmt.Errorf("server is %s/%s: %s (%s)", d.State, d.Phase, deref(d.Error), deref(d.ErrorCategory))
			}
		}
		if err := sleep(ctx, pollEvery); err != nil {
			return d, fmt.Errorf("waiting for the server to connect: %w", err)
		}
	}
}

// needsSignIn reports whether the status asks a person to sign in, and
// the ask is new: a status from before the last sign-in does not count.
func (s *session) needsSignIn(d serverDetail) bool {
	if d.Auth == nil {
		return false
	}
	asked := d.Auth.State == "sign_in_needed" ||
		(d.Auth.MoreAccess && d.Auth.State != "signing_in" && deref(d.ErrorCategory) == "sign_in" && d.Phase == "exhausted")
	if !asked {
		return false
	}
	if s.signIns == 0 {
		return true
	}
	return d.LastErrorAt != nil && !time.UnixMilli(*d.LastErrorAt).Before(s.lastSignIn)
}

// signIn is the person pressing Sign in and their browser going through
// the authorization server back to Switchboard's callback page.
func (s *session) signIn(ctx context.Context) error {
	if s.signIns >= maxSignIns {
		return fmt.Errorf("still asked to sign in after %d sign-ins: giving up", s.signIns)
	}
	s.signIns++
	// The time is taken before the sign-in starts, and to Switchboard's
	// millisecond: the server can refuse the new token before the browser's
	// redirect returns here, and that refusal is a new ask.
	s.lastSignIn = time.Now().Truncate(time.Millisecond)
	u, err := s.api.startSignIn(ctx)
	if err != nil {
		return fmt.Errorf("sign-in %d: %w", s.signIns, err)
	}
	fmt.Fprintf(s.log, "sign-in %d: browser to %s\n", s.signIns, u)
	if err := browse(ctx, u); err != nil {
		return fmt.Errorf("sign-in %d: %w", s.signIns, err)
	}
	return nil
}

// take does one step of the plan.
func (s *session) take(ctx context.Context, st step) error {
	switch st.kind {
	case stepResource:
		return s.api.readResource(ctx, st.name)
	case stepPrompt:
		return s.api.getPrompt(ctx, st.name, st.promptArgs)
	default:
		return s.callTool(ctx, st.name, st.args, st.sendAnyway)
	}
}

// callTool calls a tool through the invocation API and waits for its end,
// answering the server's questions on the way; a call refused for too
// little access is retried after signing in with more.
func (s *session) callTool(ctx context.Context, tool string, args json.RawMessage, sendAnyway bool) error {
	inv, err := s.api.callTool(ctx, tool, args, sendAnyway)
	if err != nil {
		return err
	}
	for {
		if inv, err = s.wait(ctx, inv); err != nil {
			return err
		}
		if inv.Status == "success" {
			return nil
		}
		if deref(inv.ErrorCode) == "needs_more_access" && s.signIns < maxSignIns {
			fmt.Fprintf(s.log, "call %s needs more access %v: signing in again\n", tool, inv.NeededScopes)
			if err := s.signIn(ctx); err != nil {
				return err
			}
			if inv, err = s.api.retry(ctx, inv.ID); err != nil {
				return err
			}
			continue
		}
		if retried, err := s.signInAgainIfAsked(ctx); err != nil {
			return err
		} else if retried {
			fmt.Fprintf(s.log, "call %s failed while the server asked for a new sign-in: retrying\n", tool)
			if inv, err = s.api.retry(ctx, inv.ID); err != nil {
				return err
			}
			continue
		}
		return fmt.Errorf("call %s ended %s (%s): %s %s", tool, inv.Status, deref(inv.ErrorCode), deref(inv.Error), resultText(inv.Result))
	}
}

// signInAgainIfAsked is the person noticing, after a failed call, that the
// server now says "Sign in needed" (its token was refused mid-session, say
// because its authorization server changed): they sign in and wait for the
// server to connect again. It reports whether they did.
func (s *session) signInAgainIfAsked(ctx context.Context) (bool, error) {
	if s.signIns >= maxSignIns {
		return false, nil
	}
	deadline := time.Now().Add(2 * time.Second) // the status may trail the call's end
	for {
		d, err := s.api.server(ctx)
		if err != nil {
			return false, err
		}
		s.note(d)
		if s.needsSignIn(d) {
			if _, err := s.waitConnected(ctx); err != nil {
				return false, err
			}
			return true, nil
		}
		if time.Now().After(deadline) {
			return false, nil
		}
		if err := sleep(ctx, pollEvery); err != nil {
			return false, err
		}
	}
}

// wait polls an invocation until it ends, approving it if Switchboard
// holds it for approval and answering elicitations meanwhile.
func (s *session) wait(ctx context.Context, inv invocation) (invocation, error) {
	approved := false
	for !inv.finished() {
		if inv.Status == "awaiting_approval" && !approved {
			if err := s.api.approve(ctx, inv.ID); err != nil {
				return inv, err
			}
			approved = true
		}
		if err := s.answerElicitations(ctx); err != nil {
			return inv, err
		}
		if err := sleep(ctx, pollEvery); err != nil {
			return inv, fmt.Errorf("waiting for invocation %s (%s): %w", inv.ID, inv.Status, err)
		}
		next, err := s.api.invocation(ctx, inv.ID)
		if err != nil {
			return inv, err
		}
		inv = next
	}
	return inv, nil
}

// answerElicitations accepts every pending question from the server with
// the defaults of its form.
func (s *session) answerElicitations(ctx context.Context) error {
	if s.noElicitAPI {
		return nil
	}
	list, err := s.api.elicitations(ctx)
	var ae *apiError
	if errors.As(err, &ae) && ae.Status == http.StatusNotFound {
		fmt.Fprintln(s.log, "GET /api/v1/elicitations: 404 (no elicitation API)")
		s.noElicitAPI = true
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range list {
		if e.ServerName != serverName || s.answered[e.ID] {
			continue
		}
		s.answered[e.ID] = true
		fmt.Fprintf(s.log, "elicitation %s: %q schema %s: accepting with defaults\n", e.ID, e.Message, e.RequestedSchema)
		if err := s.api.acceptElicitation(ctx, e.ID); err != nil {
			return err
		}
	}
	return nil
}

// note logs the server's status when it changes.
func (s *session) note(d serverDetail) {
	line := fmt.Sprintf("server %s/%s", d.State, d.Phase)
	if d.Error != nil {
		line += fmt.Sprintf(" error=%q (%s)", *d.Error, deref(d.ErrorCategory))
	}
	if d.Auth != nil {
		line += fmt.Sprintf(" auth=%s scopes=%v moreAccess=%v", d.Auth.State, d.Auth.Scopes, d.Auth.MoreAccess)
		if d.Auth.Detail != "" {
			line += fmt.Sprintf(" detail=%q", d.Auth.Detail)
		}
	}
	if line != s.lastServerLog {
		fmt.Fprintln(s.log, line)
		s.lastServerLog = line
	}
}

// resultText is a tool result's text, shortened, for a failure message.
func resultText(raw json.RawMessage) string {
	s := string(raw)
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
