package main

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/switchboard-mcp/switchboard/domain"
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
