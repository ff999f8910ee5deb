package domain

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
)

// StepUpWindow is how long a call refused for lack of access counts
// toward MaxStepUps for its server and tool.
const StepUpWindow = 10 * time.Minute

// KeepsRefusingError is a call refused for lack of access once more after
// MaxStepUps sign-ins with more access within StepUpWindow did not help:
// sending the person to sign in yet again would only go round in circles,
// so the call is reported as failed.
type KeepsRefusingError struct {
	Scopes []string
}

func (e *KeepsRefusingError) Error() string {
	if len(e.Scopes) == 0 {
		return "the server keeps refusing: it needs more access than signing in has granted"
	}
	return fmt.Sprintf("the server keeps refusing: needs scopes %s", strings.Join(e.Scopes, " "))
}

// stepUps counts, per server and tool, the calls refused as needing more
// access, so that a server that keeps refusing whatever a person grants
// ends as a plain failure rather than an endless round of sign-ins.
type stepUps struct {
	mu      sync.Mutex // guards refused
	refused map[stepUpKey][]time.Time
}

type stepUpKey struct{ server, tool string }

// refuse records a refusal at now and reports whether the person may still
// be offered a sign-in with more access for it: not when MaxStepUps
// refusals of the same server and tool came within the window before.
func (s *stepUps) refuse(server, tool string, now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := stepUpKey{server, tool}
	recent := s.refused[k][:0]
	for _, t := range s.refused[k] {
		if now.Sub(t) < StepUpWindow {
			recent = append(recent, t)
		}
	}
	if len(recent) >= MaxStepUps {
		s.refused[k] = recent
		return false
	}
	if s.refused == nil {
		s.refused = map[stepUpKey][]time.Time{}
	}
	s.refused[k] = append(recent, now)
	return true
}

// succeeded forgets the refusals of a server and tool that has since
// answered: the sign-in with more access worked.
func (s *stepUps) succeeded(server, tool string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.refused, stepUpKey{server, tool})
}

// stepUp decides how a call that failed with callErr ends when the server
// refused it for lack of access: with ErrorCodeNeedsMoreAccess and the
// scopes to ask for, or, once MaxStepUps did not help, as a plain
// *KeepsRefusingError. Any other failure is returned as it is.
func (s *Invocations) stepUp(inv Invocation, callErr error) (code string, scopes []string, err error) {
	var nma *NeedsMoreAccessError
	if !errors.As(callErr, &nma) {
		return "", nil, callErr
	}
	if !s.stepUps.refuse(inv.ServerName, inv.Tool, s.opts.Clock.Now()) {
		s.opts.Log.Warn("server keeps refusing a call after sign-ins with more access", "server", inv.ServerName,
			"tool", inv.Tool, "scopes", strings.Join(nma.Scopes, " "))
		return "", nil, &KeepsRefusingError{Scopes: nma.Scopes}
	}
	return ErrorCodeNeedsMoreAccess, append([]string(nil), nma.Scopes...), callErr
}
