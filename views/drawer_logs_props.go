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
	Seq     uint64
	Entries []LogEntryProps
}

// LogEntryProps is one message, already redacted; the template escapes it.
type LogEntryProps struct {
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
// (oldest first, as domain.ServerLogs returns them) and the level a person
// picked, redacting with the server's redactor: a server may log a secret
// it was given.
func NewDrawerLogsProps(name string, entries []domain.ServerLog, seq uint64, level, url string, r domain.Redactor, now time.Time) DrawerLogsProps {
	key := ServerKey(name)
	return DrawerLogsProps{
		ID:        "drawer-logs-" + key,
		HeadingID: "drawer-logs-heading-" + key,
		Level:     NewLogLevelProps(name, level, url),
		List:      NewLogListProps(name, entries, seq, r, now),
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
func NewLogListProps(name string, entries []domain.ServerLog, seq uint64, r domain.Redactor, now time.Time) LogListProps {
	p := LogListProps{ID: DrawerLogListID(name), LabelID: "drawer-logs-heading-" + ServerKey(name), Seq: seq}
	for i := len(entries) - 1; i >= 0; i-- {
		e := entries[i]
		it := LogEntryProps{
			Time:      NewTimeProps(e.At, now),
			Level:     "other",
			Logger:    r.Redact(e.Logger),
			Text:      r.Redact(e.Text),
			Truncated: e.Truncated,
		}
		if domain.ValidLogLevel(e.Level) {
			it.LevelID, it.Level = logLevelID(e.Level), e.Level
		} else {
			it.LevelRaw = r.Redact(e.Level)
		}
		p.Entries = append(p.Entries, it)
	}
	return p
}

// SeqText is Seq for the data-seq attribute.
func (p LogListProps) SeqText() string { return strconv.FormatUint(p.Seq, 10) }

// DrawerLogListID is the id of a server's log list, which the event
// stream replaces as messages arrive.
func DrawerLogListID(name string) string { return "drawer-log-list-" + ServerKey(name) }

// logLevelID is the message id naming level: "LogLevelWarning".
func logLevelID(level string) string {
	return "LogLevel" + strings.ToUpper(level[:1]) + level[1:]
}
