package domain

import "fmt"

// checkName refuses a server name holding a character that a terminal or
// a text renderer acts on instead of showing, or that hides: whatever
// IsDisplayControl reports. Such a name, from
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
// invisible character that makes two texts look alike or hides text: zero
// width space and word joiner (U+200B, U+2060, U+FEFF), soft hyphen
// (U+00AD), invisible operators (U+2061–U+2064), deprecated format
// controls (U+206A–U+206F), Mongolian vowel separator (U+180E),
// interlinear annotations (U+FFF9–U+FFFB), shorthand and musical format
// controls (U+1BCA0–U+1BCA3, U+1D173–U+1D17A) and tag characters
// (U+E0000–U+E007F), which carry invisible ASCII. It is the one rule for
// names in settings files, values in the approval dialog and text that
// switchboard status prints. The joiners U+200C and U+200D stay, and so
// do the visible format marks of Arabic and other scripts: writing needs
// them.
func IsDisplayControl(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	case r == 0x2028, r == 0x2029, r == 0x200b, r == 0x2060, r == 0xfeff:
		return true
	case r == 0x00ad, r == 0x180e, r >= 0x2061 && r <= 0x2064, r >= 0x206a && r <= 0x206f, r >= 0xfff9 && r <= 0xfffb:
		return true
	case r >= 0x1bca0 && r <= 0x1bca3, r >= 0x1d173 && r <= 0x1d17a, r >= 0xe0000 && r <= 0xe007f:
		return true
	}
	return false
}
