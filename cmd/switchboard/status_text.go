package main

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/handlers"
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

// authWords says in words where an OAuth server's sign-in stands, for
// `switchboard status`. When a sign-in is what keeps the server away (its
// error is sign_in), they replace the line's state and detail: "sign-in
// needed" is a step for a person, not a failure; otherwise they are a note
// after the detail, such as a connected server whose tokens fail to renew.
// replaces is false, and the words empty, when the sign-in adds nothing.
func authWords(s handlers.StatusDTO) (state, detail string, replaces bool) {
	a := s.Auth
	replaces = s.State == "error" && s.ErrorCategory != nil && *s.ErrorCategory == "sign_in"
	if a == nil && replaces {
		a = &handlers.AuthDTO{State: "sign_in_needed"}
	}
	if a == nil || s.State == "disabled" || s.BlockedReason != nil {
		return "", "", false
	}
	switch a.State {
	case "signed_in":
		if !a.MoreAccess {
			return "", "", false
		}
		state, detail = "more access needed", "sign in with more access from the dashboard"+scopeList(a.Scopes)
	case "sign_in_needed":
		state, detail = "sign-in needed", "open the dashboard and choose Sign in"
		if a.MoreAccess {
			detail = "sign in with more access from the dashboard" + scopeList(a.Scopes)
		}
	case "signing_in":
		state, detail = "signing in", "waiting for the browser to come back"
	case "needs_client_id":
		state, detail = "needs a client ID", "register a client with the server's authorization server and enter its ID in the dashboard"
		if a.RedirectURI != nil {
			detail = "register a client with redirect URI " + *a.RedirectURI + " and enter its ID in the dashboard"
		}
	case "failed":
		state, detail = "sign-in failed", "sign in again from the dashboard"
		if a.Detail != nil {
			detail = *a.Detail
		}
	case "refresh_failing":
		state, detail = "sign-in refresh failing", "retrying"
		if a.Detail != nil {
			detail = *a.Detail + "; retrying"
		}
	default:
		return "", "", false
	}
	return state, detail, replaces
}

// scopeList is " (scopes: a b)", or nothing without scopes.
func scopeList(scopes []string) string {
	if len(scopes) == 0 {
		return ""
	}
	return " (scopes: " + strings.Join(scopes, " ") + ")"
}
