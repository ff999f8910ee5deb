package domain

import "fmt"

// checkName refuses a server name holding a character that a terminal or
// a text renderer acts on instead of showing: C0 and C1 controls, DEL and
// the bidirectional embeddings, overrides and isolates. Such a name, from
// a cloned project's .mcp.json say, could clear a terminal, forge status
// lines or show "gnp.exe" as "exe.png". It returns "" for a good name.
func checkName(name string) string {
	for _, r := range name {
		if IsDisplayControl(r) {
			return fmt.Sprintf("the name contains the control character %U; rename the server", r)
		}
	}
	return ""
}

// IsDisplayControl reports whether r changes how text around it is shown
// rather than being shown itself: a C0 or C1 control, DEL, a bidi mark,
// embedding, override or isolate (U+061C, U+200E–U+200F, U+202A–U+202E,
// U+2066–U+2069), a line or paragraph separator (U+2028, U+2029), or an
// invisible character that makes two names look alike (U+200B, U+2060,
// U+FEFF). The joiners U+200C and U+200D stay: scripts and emoji need them.
func IsDisplayControl(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	case r == 0x2028, r == 0x2029, r == 0x200b, r == 0x2060, r == 0xfeff:
		return true
	}
	return false
}
