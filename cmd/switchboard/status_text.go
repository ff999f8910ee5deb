package main

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/handlers"
	"github.com/switchboard-mcp/switchboard/locales"
)

// printable makes text from a running instance safe to print on a
// terminal. Server names come from settings files, a cloned project's
// among them, and error text from the servers themselves; a control
// character in either could clear the screen, set the window title or
// forge a status line, and a bidi override could reverse what is read.
// Each such character, and each byte that is not UTF-8, is shown escaped:
// \x1b for a byte-sized control, U+202E for a bidi control.
func printable(s string) string {
	clean := true
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || domain.IsDisplayControl(r) {
			clean = false
			break
		}
		i += size
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case domain.IsDisplayControl(r) && r <= 0xff:
			fmt.Fprintf(&b, `\x%02x`, r)
		case domain.IsDisplayControl(r):
			fmt.Fprintf(&b, "%U", r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// printableStatus is s with every text the instance sent made printable
// (printable), before any of it goes into a translated sentence: escaping
// the finished line instead would also escape the isolates that keep an
// Arabic sentence's values in place.
func printableStatus(s handlers.StatusDTO) handlers.StatusDTO {
	str := func(p *string) *string {
		if p == nil {
			return nil
		}
		v := printable(*p)
		return &v
	}
	s.ServerName, s.State = printable(s.ServerName), printable(s.State)
	s.ErrorCategory, s.Error, s.BlockedReason = str(s.ErrorCategory), str(s.Error), str(s.BlockedReason)
	if s.Auth != nil {
		a := *s.Auth
		a.Detail, a.RedirectURI = str(a.Detail), str(a.RedirectURI)
		a.Scopes = make([]string, len(s.Auth.Scopes))
		for i, sc := range s.Auth.Scopes {
			a.Scopes[i] = printable(sc)
		}
		s.Auth = &a
	}
	return s
}

// authWords says in words where an OAuth server's sign-in stands, for
// `switchboard status`. When a sign-in is what keeps the server away (its
// error is sign_in), they replace the line's state and detail: "sign-in
// needed" is a step for a person, not a failure; otherwise they are a note
// after the detail, such as a connected server whose tokens fail to renew.
// replaces is false, and the words empty, when the sign-in adds nothing.
func authWords(l *locales.Localizer, s handlers.StatusDTO) (state, detail string, replaces bool) {
	a := s.Auth
	replaces = s.State == "error" && s.ErrorCategory != nil && *s.ErrorCategory == "sign_in"
	if a == nil && replaces {
		a = &handlers.AuthDTO{State: "sign_in_needed"}
	}
	if a == nil || s.State == "disabled" || s.BlockedReason != nil {
		return "", "", false
	}
	moreAccess := func() string { return scopeList(l, l.T("StatusCliAuthMoreAccessDetail", nil), a.Scopes) }
	switch a.State {
	case "signed_in":
		if !a.MoreAccess {
			return "", "", false
		}
		state, detail = l.T("StatusCliAuthMoreAccess", nil), moreAccess()
	case "sign_in_needed":
		state, detail = l.T("StatusCliAuthSignInNeeded", nil), l.T("StatusCliAuthSignInNeededDetail", nil)
		if a.MoreAccess {
			detail = moreAccess()
		}
	case "signing_in":
		state, detail = l.T("StatusCliAuthSigningIn", nil), l.T("StatusCliAuthSigningInDetail", nil)
	case "needs_client_id":
		state, detail = l.T("StatusCliAuthNeedsClientID", nil), l.T("StatusCliAuthNeedsClientIDDetail", nil)
		if a.RedirectURI != nil {
			detail = l.T("StatusCliAuthNeedsClientIDRedirect", map[string]any{"URI": *a.RedirectURI})
		}
	case "failed":
		state, detail = l.T("StatusCliAuthFailed", nil), l.T("StatusCliAuthFailedDetail", nil)
		if a.Detail != nil {
			detail = *a.Detail
		}
	case "refresh_failing":
		state, detail = l.T("StatusCliAuthRefreshFailing", nil), l.T("StatusCliAuthRetrying", nil)
		if a.Detail != nil {
			detail = l.T("StatusCliAuthRetryingAfter", map[string]any{"Detail": *a.Detail})
		}
	default:
		return "", "", false
	}
	return state, detail, replaces
}

// scopeList appends " (scopes: a b)" to detail, or nothing without scopes.
func scopeList(l *locales.Localizer, detail string, scopes []string) string {
	if len(scopes) == 0 {
		return detail
	}
	return l.T("StatusCliScopes", map[string]any{"Detail": detail, "Scopes": strings.Join(scopes, " ")})
}

// stateWords names a server's states; a state this build does not know is
// shown as the instance sent it.
var stateWords = map[string]string{
	"connected":  "StatusCliStateConnected",
	"connecting": "StatusCliStateConnecting",
	"error":      "StatusCliStateError",
	"disabled":   "StatusCliStateDisabled",
}

func stateWord(l *locales.Localizer, state string) string {
	if id, ok := stateWords[state]; ok {
		return l.T(id, nil)
	}
	return state
}

// categoryWords names the error categories of domain/errors.go.
var categoryWords = map[string]string{
	"timeout":  "StatusCliCategoryTimeout",
	"refused":  "StatusCliCategoryRefused",
	"dns":      "StatusCliCategoryDNS",
	"exited":   "StatusCliCategoryExited",
	"protocol": "StatusCliCategoryProtocol",
	"session":  "StatusCliCategorySession",
	"tls":      "StatusCliCategoryTLS",
	"auth":     "StatusCliCategoryAuth",
	"config":   "StatusCliCategoryConfig",
	"sign_in":  "StatusCliCategorySignIn",
}

// errorDetail says why a server is in error and when it is tried again.
func errorDetail(l *locales.Localizer, s handlers.StatusDTO, now time.Time) string {
	cat := l.T("StatusCliCategoryUnknown", nil)
	if s.ErrorCategory != nil {
		cat = *s.ErrorCategory
		if id, ok := categoryWords[cat]; ok {
			cat = l.T(id, nil)
		}
	}
	if s.ExitCode != nil {
		if *s.ExitCode >= 0 {
			cat = l.T("StatusCliExitCode", map[string]any{"Category": cat, "Code": *s.ExitCode})
		} else {
			cat = l.T("StatusCliKilled", map[string]any{"Category": cat})
		}
	}
	switch {
	case s.NextRetryAt != nil:
		wait := time.UnixMilli(*s.NextRetryAt).Sub(now).Round(time.Second)
		return l.T("StatusCliRetryIn", map[string]any{"Category": cat, "Wait": waitText(l, max(wait, 0))})
	case !s.Retryable:
		return l.T("StatusCliNoAutoRetry", map[string]any{"Category": cat})
	}
	return l.T("StatusCliAutoRetryOff", map[string]any{"Category": cat})
}

// waitText says a whole-second duration short, in hours, minutes and
// seconds: "4s", "1m30s" in English, as Go writes durations.
func waitText(l *locales.Localizer, d time.Duration) string {
	secs := int64(d / time.Second)
	h, m, sec := secs/3600, secs/60%60, secs%60
	switch {
	case h > 0:
		return l.T("StatusCliWaitHours", map[string]any{"Hours": h, "Minutes": m, "Seconds": sec})
	case m > 0:
		return l.T("StatusCliWaitMinutes", map[string]any{"Minutes": m, "Seconds": sec})
	}
	return l.T("StatusCliWaitSeconds", map[string]any{"Seconds": sec})
}

// blockedReasons names why a blocked server does not run and the way out.
var blockedReasons = map[string]string{
	"pending_approval": "StatusCliBlockedPending",
	"rejected":         "StatusCliBlockedRejected",
	"excluded":         "StatusCliBlockedExcluded",
	"not_allowed":      "StatusCliBlockedNotAllowed",
}

func blockedDetail(l *locales.Localizer, reason string) string {
	if id, ok := blockedReasons[reason]; ok {
		return l.T(id, nil)
	}
	return reason
}
