package views

import (
	"strings"

	"github.com/switchboard-mcp/switchboard/domain"
)

// ArgsNotesProps is what a card says about its arguments beside their
// values: which ones nobody typed because Switchboard took them from the
// tool schema's defaults, and the schema violations they were sent with
// anyway, so that an odd answer from the server can be read against them.
type ArgsNotesProps struct {
	Defaults []string // property paths, as people read them: "scale", "options.depth"
	// Mismatch says where and what, in the page's language (MsgText),
	// at most MaxViolations; MismatchMore says there were more.
	Mismatch     []Message
	MismatchMore bool
}

// NewArgsNotesProps reads the notes off one invocation.
func NewArgsNotesProps(inv domain.Invocation) ArgsNotesProps {
	var p ArgsNotesProps
	for _, ptr := range inv.Defaults {
		p.Defaults = append(p.Defaults, pointerPath(ptr))
	}
	for _, v := range inv.Mismatch[:min(len(inv.Mismatch), MaxViolations)] {
		p.Mismatch = append(p.Mismatch, ViolationAtMessage(v))
	}
	p.MismatchMore = len(inv.Mismatch) > MaxViolations
	return p
}

// Empty reports whether there is nothing to note.
func (p ArgsNotesProps) Empty() bool { return len(p.Defaults) == 0 && len(p.Mismatch) == 0 }

// pointerPath turns a JSON pointer into the dotted path people read:
// "/options/depth" is "options.depth".
func pointerPath(ptr string) string {
	tokens := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	unescape := strings.NewReplacer("~1", "/", "~0", "~")
	for i, t := range tokens {
		tokens[i] = unescape.Replace(t)
	}
	return strings.Join(tokens, ".")
}
