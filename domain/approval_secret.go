package domain

import "strings"

// RedactWrittenSecret shows a secret as a settings file writes it without
// the secret itself: each ${VAR} reference stays, since it names the
// variable read and not its value, and every run of literal text between
// them becomes Redacted. A person approving the entry learns that a
// secret is written there, and which of their variables it reads, while
// the dialog and the API never repeat the secret. Empty stays empty.
func RedactWrittenSecret(s string) string {
	if s == "" {
		return ""
	}
	var b strings.Builder
	last := 0
	for _, loc := range envRef.FindAllStringIndex(s, -1) {
		if loc[0] > last {
			b.WriteString(Redacted)
		}
		b.WriteString(s[loc[0]:loc[1]])
		last = loc[1]
	}
	if last < len(s) {
		b.WriteString(Redacted)
	}
	return b.String()
}
