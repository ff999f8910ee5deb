package views

import (
	"github.com/switchboard-mcp/switchboard/domain"
)

// Message is a message id with its template data, translated when rendered.
type Message struct {
	ID   string
	Data map[string]any
}

// ChipProps is what a status chip shows.
type ChipProps struct {
	Name    string
	State   string // connecting, connected, error, disabled: drives the dot's colour and shape
	StateID string // message id of the state's accessible name
	Badge   Message
}

// NewChipProps decides the chip's badge from a status snapshot.
func NewChipProps(s domain.Status) ChipProps {
	p := ChipProps{Name: s.ServerName, State: string(s.State)}
	switch s.State {
	case domain.StateConnected:
		p.StateID = "StateConnected"
		p.Badge = Message{ID: "ToolCount", Data: map[string]any{"Count": s.ToolCount}}
	case domain.StateConnecting:
		p.StateID = "StateConnecting"
		p.Badge = Message{ID: "BadgeConnecting"}
		if s.Attempt > 0 || s.Error != "" {
			p.Badge = Message{ID: "BadgeReconnecting"}
		}
	case domain.StateError:
		p.StateID = "StateError"
		p.Badge = Message{ID: "BadgeError", Data: map[string]any{"Category": string(s.ErrorCategory)}}
	default:
		p.StateID = "StateDisabled"
		p.Badge = Message{ID: "BadgeDisabled"}
		if s.DisabledReason == domain.DisabledAuto {
			p.Badge = Message{ID: "BadgeAutoDisabled"}
		}
	}
	return p
}

// ServerRowProps is one row of the server list.
type ServerRowProps struct {
	Chip      ChipProps
	Transport string
	Target    string
	Counts    []Message // tools, resources, prompts
}

// NewServerRowProps builds a row from a status snapshot.
func NewServerRowProps(s domain.Status) ServerRowProps {
	return ServerRowProps{
		Chip:      NewChipProps(s),
		Transport: string(s.Transport),
		Target:    s.Target,
		Counts: []Message{
			{ID: "ToolCount", Data: map[string]any{"Count": s.ToolCount}},
			{ID: "ResourceCount", Data: map[string]any{"Count": s.ResourceCount}},
			{ID: "PromptCount", Data: map[string]any{"Count": s.PromptCount}},
		},
	}
}

// DemoProps says whether the built-in demo is running and why.
type DemoProps struct {
	Active       bool
	SettingsPath string // where a settings file would be read; empty when --demo forced the demo
}

// PageProps is the whole dashboard.
type PageProps struct {
	CSSURL  string
	Demo    DemoProps
	Chips   []ChipProps
	Servers []ServerRowProps
}

// NewPageProps builds the dashboard from the hub's list.
func NewPageProps(cssURL string, demo DemoProps, list []domain.Status) PageProps {
	p := PageProps{CSSURL: cssURL, Demo: demo}
	for _, s := range list {
		p.Chips = append(p.Chips, NewChipProps(s))
		p.Servers = append(p.Servers, NewServerRowProps(s))
	}
	return p
}
