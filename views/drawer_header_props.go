package views

import (
	"strconv"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// DrawerHeaderProps is the top of a drawer: who the server is, how it is
// reached and what state it is in. The event stream re-renders it from
// every snapshot, so it holds nothing a snapshot does not.
type DrawerHeaderProps struct {
	ID      string
	TitleID string
	Name    string
	State   string
	// Chip is the same chip as in the header and the list, without a
	// button or tooltip: the drawer is already open.
	Chip   ChipProps
	Target string
	Source string // the settings file the server came from; empty for the built-in demo
	// WorkDir is the directory a stdio server runs in (its cwd, else its
	// project's or the user's home); empty for remote servers and for a
	// server that runs where Switchboard does (the built-in demo).
	WorkDir   string
	Stdio     bool
	Transport string
	// TransportID names the transport for people; the raw value stays in
	// Transport for scripts and tests.
	TransportID string
	Protocol    string   // empty until a handshake negotiated one
	Error       string   // redacted; empty when the snapshot carries no error
	ErrorMsg    *Message // Error in the page's language, when the domain says what it means
	// ErrorStderr is the process's last stderr line before a kill or a
	// cut-off start, shown labelled as context, not as the cause.
	ErrorStderr  string
	CategoryID   string
	Category     string
	LastErrorAt  int64  // epoch ms, 0 when unknown
	LastErrorISO string // the same instant for <time datetime>
	Version      uint64
	Stamp        string

	// ProtocolEraID says how the connection works at Protocol: a session
	// or stateless requests; empty with no Protocol.
	ProtocolEraID string
}

// NewDrawerHeaderProps derives the header from one snapshot. A connected
// snapshot carries no error, so a header rebuilt after a reconnect shows
// none.
func NewDrawerHeaderProps(s domain.Status) DrawerHeaderProps {
	chip := NewChipProps(s)
	p := DrawerHeaderProps{
		ID:          "drawer-header-" + ServerKey(s.ServerName),
		TitleID:     drawerTitleID(s.ServerName),
		Name:        s.ServerName,
		State:       chip.State,
		Chip:        chip,
		Target:      s.Target,
		Source:      s.Source,
		WorkDir:     s.WorkDir,
		Stdio:       s.Transport == domain.TransportStdio,
		Transport:   string(s.Transport),
		TransportID: transportID(s.Transport),
		Protocol:    s.ProtocolVersion,
		Version:     s.Version,
		Stamp:       liveStamp(s),
	}
	p.ProtocolEraID = protocolEraID(s.ProtocolVersion)
	// A server waiting for a sign-in shows no error: its sign-in section
	// says what to do.
	if s.Error != "" && s.State != domain.StateConnected && !signInWaits(s) {
		p.Error = s.Error
		p.ErrorMsg = errorMessage(s)
		p.ErrorStderr = s.ErrorStderr
		p.Category = string(s.ErrorCategory)
		p.CategoryID = categoryID(s.ErrorCategory)
		if !s.LastErrorAt.IsZero() {
			p.LastErrorAt = s.LastErrorAt.UnixMilli()
			p.LastErrorISO = s.LastErrorAt.UTC().Format(time.RFC3339)
		}
	}
	return p
}

// VersionAttr is the snapshot version as an attribute value; the drawer's
// script refuses to replace a header with an older one.
func (p DrawerHeaderProps) VersionAttr() string { return strconv.FormatUint(p.Version, 10) }

// LastErrorAttr is the last error's time as an attribute value.
func (p DrawerHeaderProps) LastErrorAttr() string { return strconv.FormatInt(p.LastErrorAt, 10) }

func transportID(t domain.Transport) string {
	switch t {
	case domain.TransportStdio:
		return "DrawerTransportStdio"
	case domain.TransportHTTP:
		return "DrawerTransportHTTP"
	case domain.TransportSSE:
		return "DrawerTransportSSE"
	}
	return "DrawerTransportUnknown"
}

func categoryID(c domain.ErrorCategory) string {
	switch c {
	case domain.CategoryTimeout:
		return "DrawerCategoryTimeout"
	case domain.CategoryRefused:
		return "DrawerCategoryRefused"
	case domain.CategoryDNS:
		return "DrawerCategoryDNS"
	case domain.CategoryExited:
		return "DrawerCategoryExited"
	case domain.CategoryProtocol:
		return "DrawerCategoryProtocol"
	case domain.CategorySession:
		return "DrawerCategorySession"
	case domain.CategoryTLS:
		return "DrawerCategoryTLS"
	case domain.CategoryAuth:
		return "DrawerCategoryAuth"
	case domain.CategoryConfig:
		return "DrawerCategoryConfig"
	}
	return "DrawerCategoryOther"
}
