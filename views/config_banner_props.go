package views

import "github.com/switchboard-mcp/switchboard/domain"

// ConfigBannerSlotID is the page element the config banner lives in; it is
// always present, empty while the settings file applies cleanly, so the
// page stream can fill and clear it with one out-of-band swap.
const ConfigBannerSlotID = "config-banner-slot"

// ConfigBannerProps says why the newest edit of a settings file was not
// applied. Every field but OOB is untrusted text (a path, a server name, a
// parser's message) and is escaped by the template.
type ConfigBannerProps struct {
	Show    bool
	File    string
	Line    int // 0 when the position is unknown
	Column  int
	Server  string
	Message string
	OOB     bool // render as the page stream's out-of-band swap
}

// NewConfigBannerProps builds the banner from the reloader's state; a nil
// state (demo mode) or one without an error shows nothing.
func NewConfigBannerProps(st *domain.ConfigState, oob bool) ConfigBannerProps {
	p := ConfigBannerProps{OOB: oob}
	if st == nil || st.Error == nil {
		return p
	}
	e := st.Error
	p.Show, p.File, p.Line, p.Column, p.Server, p.Message = true, e.File, e.Line, e.Column, e.Server, e.Message
	return p
}
