package views

import (
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// Message is a message id with its template data, translated when rendered.
type Message struct {
	ID   string
	Data map[string]any
}

// ServerRowProps is one row of the server list.
type ServerRowProps struct {
	Chip      ChipProps
	Transport string
	Target    string
	Counts    []Message // tools, resources, prompts
	DrawerURL string
	OOB       bool // an out-of-band swap of the row on the page
}

// ID is the row element's id, the target of its out-of-band swap.
func (r ServerRowProps) ID() string { return "row-" + r.Chip.Key }

// NewServerRowProps builds a row from a status snapshot.
func NewServerRowProps(s domain.Status, now time.Time, drawerURL string) ServerRowProps {
	return ServerRowProps{
		Chip:      NewChipPropsAt(s, now).At(PlaceRow, drawerURL),
		Transport: string(s.Transport),
		Target:    s.Target,
		Counts: []Message{
			{ID: "ToolCount", Data: map[string]any{"Count": s.ToolCount}},
			{ID: "ResourceCount", Data: map[string]any{"Count": s.ResourceCount}},
			{ID: "PromptCount", Data: map[string]any{"Count": s.PromptCount}},
		},
		DrawerURL: drawerURL,
	}
}

// ServerListProps is the main list. It is swapped whole when a server is
// added or removed, so it carries its own OOB flag.
type ServerListProps struct {
	Rows []ServerRowProps
	OOB  bool
}

// ChipListProps is the header's row of chips, swapped whole like the list.
type ChipListProps struct {
	Chips []ChipProps
	OOB   bool
}

// DemoNoticeSlotID is the page element the demo notice lives in.
const DemoNoticeSlotID = "demo-notice-slot"

// DemoProps says whether the built-in demo is running and why.
type DemoProps struct {
	Active       bool
	SettingsPath string // where a settings file would be read; empty when --demo forced the demo
	OOB          bool   // rendered for the page stream, to swap the slot
}

// PageURLs are the addresses the page links to. Views cannot import the
// route table, so handlers pass them in.
type PageURLs struct {
	Stylesheets []string
	Scripts     []string
	Events      string // the page's event stream
	Preferences string // where the theme and language forms post
	// Drawer gives the drawer fragment's URL for a server name.
	Drawer func(name string) string
	// Approve and Reject give where the approval dialog posts a decision.
	Approve, Reject func(name string) string
}

// HTMXConfig is the page's htmx configuration: nothing that needs eval,
// inline scripts or inline styles, which the Content-Security-Policy
// refuses, and no settle delay, so a swap shows its new state at once.
const HTMXConfig = `{"allowEval":false,"allowScriptTags":false,"includeIndicatorStyles":false,"defaultSettleDelay":0,"selfRequestsOnly":true}`

// PageProps is the whole dashboard.
type PageProps struct {
	Theme       string
	HTMXConfig  string
	Stylesheets []string
	Scripts     []string
	EventsURL   string
	Preferences PreferencesProps
	Demo        DemoProps
	Chips       ChipListProps
	Servers     ServerListProps
	// ConfigBanner and Approval fill slots the page stream keeps current.
	ConfigBanner ConfigBannerProps
	Approval     ApprovalProps
}

// PageInput is everything NewPageProps decides from.
type PageInput struct {
	URLs  PageURLs
	Demo  DemoProps
	List  []domain.Status // sorted by name, as the hub lists them
	Now   time.Time
	Theme string // the person's choice; anything unknown means "system"
	Lang  string // the language the person chose, for the switcher; empty follows the browser
	// Config is the settings reloader's state; nil (demo mode) shows no banner.
	Config *domain.ConfigState
}

// NewPageProps builds the dashboard from the hub's list.
func NewPageProps(in PageInput) PageProps {
	p := PageProps{
		Theme:       NormalTheme(in.Theme),
		HTMXConfig:  HTMXConfig,
		Stylesheets: in.URLs.Stylesheets,
		Scripts:     in.URLs.Scripts,
		EventsURL:   in.URLs.Events,
		Preferences: NewPreferencesProps(in.URLs.Preferences, in.Theme, in.Lang),
		Demo:        in.Demo,
	}
	p.Chips, p.Servers = NewFleetProps(in.List, in.Now, in.URLs.Drawer)
	p.ConfigBanner = NewConfigBannerProps(in.Config, false)
	p.Approval = NewApprovalProps(in.List, in.URLs.Approve, in.URLs.Reject, false)
	return p
}

// NewFleetProps builds the header chips and the list rows of every server;
// the page and the event stream's full-state event share it.
func NewFleetProps(list []domain.Status, now time.Time, drawer func(string) string) (ChipListProps, ServerListProps) {
	var chips ChipListProps
	var rows ServerListProps
	for _, s := range list {
		url := drawerURL(drawer, s.ServerName)
		chips.Chips = append(chips.Chips, NewChipPropsAt(s, now).At(PlaceHeader, url))
		rows.Rows = append(rows.Rows, NewServerRowProps(s, now, url))
	}
	return chips, rows
}

func drawerURL(drawer func(string) string, name string) string {
	if drawer == nil {
		return ""
	}
	return drawer(name)
}
