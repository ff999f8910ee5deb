package views

import (
	"strconv"
	"strings"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// DrawerLogsProps is a server's log messages (notifications/message) in
// its drawer, and the level selector that asks the server for more or
// fewer of them. The zero value shows nothing: a drawer whose handler
// keeps no log messages.
type DrawerLogsProps struct {
	ID        string
	HeadingID string
	Level     LogLevelProps
	List      LogListProps
}

// LogLevelProps is the level selector's form.
type LogLevelProps struct {
	ID       string
	SelectID string
	HelpID   string
	URL      string // POST level=...
	// Current is the level a person last asked for; "" while the server
	// keeps its own default.
	Current string
	Options []LogLevelOption
	Saved   bool   // the server just agreed to Current
	Error   string // message id of a refusal, shown beside the selector
}

// LogLevelOption is one choice of the selector.
type LogLevelOption struct {
	Value    string
	Label    string // message id
	Selected bool
}

// LogListProps is the kept messages, newest first, so the newest is where
// the box opens whatever it held before.
type LogListProps struct {
	ID      string
	LabelID string
	// Seq is how many messages the server has sent, so the event stream
	// sends the list again only when it grew.
	Seq uint64
	// ItemsID is the id of the list element, which the event stream adds
	// new messages to; Cap is how many it holds at most, so the page
	// trims the oldest (static/js/logs.js).
	ItemsID string
	Cap     int
	Entries []LogEntryProps
}

// LogAppendProps is the messages a page has not seen yet, newest first,
// for the event stream to put at the top of a list the page already
// shows, instead of sending the whole list again.
type LogAppendProps struct {
	ItemsID string
	Entries []LogEntryProps
}

// LogEntryProps is one message, already redacted; the template escapes it.
type LogEntryProps struct {
	// Seq tells the page which entries it holds twice (a drawer opened
	// while the stream's update was on its way) so it keeps one.
	Seq  uint64
	Time TimeProps
	// LevelID is the message id of a known level's word; LevelRaw is an
	// unknown level as the server spelled it.
	LevelID   string
	LevelRaw  string
	Level     string // data-level: the known level, or "other"
	Logger    string
	Text      string
	Truncated bool
}

// NewDrawerLogsProps builds the section from a server's kept messages
// (oldest first and already redacted, as domain.ServerLogs returns them),
// how many it keeps at most, and the level a person picked.
func NewDrawerLogsProps(name string, entries []domain.ServerLog, seq uint64, keep int, level, url string, now time.Time) DrawerLogsProps {
	key := ServerKey(name)
	return DrawerLogsProps{
		ID:        "drawer-logs-" + key,
		HeadingID: "drawer-logs-heading-" + key,
		Level:     NewLogLevelProps(name, level, url),
		List:      NewLogListProps(name, entries, seq, keep, now),
	}
}

// NewLogLevelProps is the selector showing level as chosen.
func NewLogLevelProps(name, level, url string) LogLevelProps {
	key := ServerKey(name)
	p := LogLevelProps{
		ID:       "log-level-" + key,
		SelectID: "log-level-select-" + key,
		HelpID:   "log-level-help-" + key,
		URL:      url,
		Current:  level,
	}
	for _, l := range domain.LogLevels {
		p.Options = append(p.Options, LogLevelOption{Value: l, Label: logLevelID(l), Selected: l == level})
	}
	return p
}

// NewLogListProps turns the kept messages into the list, newest first.
func NewLogListProps(name string, entries []domain.ServerLog, seq uint64, keep int, now time.Time) LogListProps {
	return LogListProps{ID: DrawerLogListID(name), LabelID: "drawer-logs-heading-" + ServerKey(name), Seq: seq,
		ItemsID: DrawerLogItemsID(name), Cap: keep, Entries: newLogEntries(entries, now)}
}

// NewLogAppendProps is the messages after those a page has, newest first.
func NewLogAppendProps(name string, entries []domain.ServerLog, now time.Time) LogAppendProps {
	return LogAppendProps{ItemsID: DrawerLogItemsID(name), Entries: newLogEntries(entries, now)}
}

// newLogEntries turns messages, oldest first, into entries, newest first.
func newLogEntries(entries []domain.ServerLog, now time.Time) []LogEntryProps {
	out := make([]LogEntryProps, 0, len(entries))
	for i := len(entries) - 1; i >= 0; i-- {
		e := entries[i]
		it := LogEntryProps{
			Seq:       e.Seq,
			Time:      NewTimeProps(e.At, now),
			Level:     "other",
			Logger:    e.Logger,
			Text:      e.Text,
			Truncated: e.Truncated,
		}
		if domain.ValidLogLevel(e.Level) {
			it.LevelID, it.Level = logLevelID(e.Level), e.Level
		} else {
			it.LevelRaw = e.Level
		}
		out = append(out, it)
	}
	return out
}

// SeqText is Seq for the data-seq attribute.
func (p LogListProps) SeqText() string { return strconv.FormatUint(p.Seq, 10) }

// DrawerLogListID is the id of a server's log list, which the event
// stream replaces as messages arrive.
func DrawerLogListID(name string) string { return "drawer-log-list-" + ServerKey(name) }

// DrawerLogItemsID is the id of a server's list of log entries, which the
// event stream adds new messages to.
func DrawerLogItemsID(name string) string { return "drawer-log-items-" + ServerKey(name) }

// CapText is Cap for the data-cap attribute.
func (p LogListProps) CapText() string { return strconv.Itoa(p.Cap) }

// OOB is the out-of-band swap that puts the entries at the top of the
// list.
func (p LogAppendProps) OOB() string { return "afterbegin:#" + p.ItemsID }

// SeqText is Seq for the data-seq attribute.
func (p LogEntryProps) SeqText() string { return strconv.FormatUint(p.Seq, 10) }

// logLevelID is the message id naming level: "LogLevelWarning".
func logLevelID(level string) string {
	return "LogLevel" + strings.ToUpper(level[:1]) + level[1:]
}
