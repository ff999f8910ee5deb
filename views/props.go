package views

import (
	"net/url"
	"strconv"
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
	Group     string // GroupFailing, …: what the state filters match
	Rank      int    // the group's place in ServerGroups: rows sort by it, then name
	Transport string
	Target    string
	// TargetHead and TargetTail split Target so a narrow list shortens it
	// in the middle (SplitTarget); Target is the whole text, on hover.
	TargetHead, TargetTail string
	Counts                 []Message // tools, resources, prompts
	DrawerURL              string
	OOB                    bool // an out-of-band swap of the row on the page
}

// ID is the row element's id, the target of its out-of-band swap.
func (r ServerRowProps) ID() string { return "row-" + r.Chip.Key }

// NewServerRowProps builds a row from a status snapshot.
func NewServerRowProps(s domain.Status, now time.Time, drawerURL string) ServerRowProps {
	chip := NewChipPropsAt(s, now).At(PlaceRow, drawerURL)
	group := groupOf(chip.State)
	head, tail := SplitTarget(s.Target)
	return ServerRowProps{
		Chip:       chip,
		Group:      group,
		Rank:       groupRank(group),
		Transport:  string(s.Transport),
		Target:     s.Target,
		TargetHead: head,
		TargetTail: tail,
		// The tooltip's counts are the row's: one set of messages for both.
		Counts:    chip.Tooltip.Counts,
		DrawerURL: drawerURL,
	}
}

// ServerListProps is the main list, sorted failing first, then by name.
// It is swapped whole when a server is added or removed, so it carries
// its own OOB flag.
type ServerListProps struct {
	Rows []ServerRowProps
	OOB  bool
}

// FilterAbove is how many servers the list shows before it offers a
// filter box.
const FilterAbove = 10

// ServersSectionProps is the part of the server list the event stream
// never replaces: its heading, the filter box and the state filter, so
// what a person typed or chose survives every live update.
type ServersSectionProps struct {
	List ServerListProps
	// Filter is the group the list is narrowed to ("" for all), from the
	// page address's state parameter.
	Filter string
	// ShowFilterBox is set above FilterAbove servers; the page's script
	// keeps it current as servers come and go.
	ShowFilterBox bool
	// ClearHref is the "show all" link's address; empty is "?".
	ClearHref string
}

// GroupLabel is the message id naming a group in the filter note.
func GroupLabel(group string) string { return "ServersFilter_" + group }

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
	// Workbench and LazyCSS are the script and stylesheet of the drawer and
	// a call's card, which the page loads with the first drawer or card
	// rather than up front.
	Workbench   string
	LazyCSS     string
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
	Workbench   string // the drawer's script, loaded with the first drawer
	LazyCSS     string // the drawer's and cards' stylesheet, loaded with them
	EventsURL   string
	Preferences PreferencesProps
	Demo        DemoProps
	Summary     HeaderSummaryProps
	Servers     ServersSectionProps
	Calls       CallsProps // the Calls section, filled by handlers' callsSection
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
	// ServerFilter is the page address's state parameter: the group the
	// server list is narrowed to; anything unknown shows every server.
	ServerFilter string
	// Query is the page address's whole query, kept by the summary's
	// links so a state filter never drops the call list's filters.
	Query url.Values
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
		Workbench:   in.URLs.Workbench,
		LazyCSS:     in.URLs.LazyCSS,
		EventsURL:   in.URLs.Events,
		Preferences: NewPreferencesProps(in.URLs.Preferences, in.Theme, in.Lang),
		Demo:        in.Demo,
	}
	filter := NormalServerFilter(in.ServerFilter)
	p.Summary, p.Servers.List = NewFleetProps(in.List, in.Now, in.URLs.Drawer, filter)
	p.Servers.Filter = filter
	p.Servers.ShowFilterBox = len(in.List) > FilterAbove
	keepQuery(&p, in.Query)
	p.ConfigBanner = NewConfigBannerProps(in.Config, false)
	p.Approval = NewApprovalProps(in.List, in.URLs.Approve, in.URLs.Reject, false)
	return p
}

// NewFleetProps builds the header summary and the list rows of every
// server, sorted failing first; the page and the event stream's
// full-state event share it. filter marks the summary's current link.
func NewFleetProps(list []domain.Status, now time.Time, drawer func(string) string, filter string) (HeaderSummaryProps, ServerListProps) {
	var rows ServerListProps
	if len(list) > 0 {
		rows.Rows = make([]ServerRowProps, 0, len(list))
	}
	for _, s := range list {
		rows.Rows = append(rows.Rows, NewServerRowProps(s, now, drawerURL(drawer, s.ServerName)))
	}
	sortRows(rows.Rows)
	return NewHeaderSummaryProps(list, filter), rows
}

func drawerURL(drawer func(string) string, name string) string {
	if drawer == nil {
		return ""
	}
	return drawer(name)
}

// RankText is the row's rank as the data-rank attribute the page's script
// sorts by.
func (r ServerRowProps) RankText() string { return strconv.Itoa(r.Rank) }
