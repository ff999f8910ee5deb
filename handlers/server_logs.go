package handlers

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

// serverLogsFeed is what the drawer and the event stream need to show
// servers' log messages; nil when Options.ServerLogs is nil.
type serverLogsFeed struct {
	logs  *domain.ServerLogs
	fleet *domain.Fleet
	now   func() time.Time // Options.Now
}

// registerServerLogs serves the log messages' API and level selector, and
// gives the drawer and the page's event stream the messages to show.
func registerServerLogs(e *echo.Echo, opts Options, drawer *drawerUI, page *pageEvents) {
	if opts.ServerLogs == nil {
		return
	}
	feed := &serverLogsFeed{logs: opts.ServerLogs, fleet: opts.Fleet, now: opts.Now}
	drawer.logs, page.logs = feed, feed
	api := &serverLogsAPI{feed: feed}
	e.GET(PathServerLogs, api.list)
	e.PUT(PathServerLogLevel, api.setLevel)
	e.POST(PathUILogLevel, drawer.withToast("ToastFailed", drawer.setLogLevel))
}

// drawerProps is the drawer's log section for one server, now.
func (f *serverLogsFeed) drawerProps(name string) (views.DrawerLogsProps, error) {
	return f.props(name, f.now())
}

// props is the drawer's log section for one server. The messages were
// redacted when they were kept, so rendering them redacts nothing again.
func (f *serverLogsFeed) props(name string, now time.Time) (views.DrawerLogsProps, error) {
	if _, err := f.fleet.Status(name); err != nil {
		return views.DrawerLogsProps{}, err
	}
	return views.NewDrawerLogsProps(name, f.logs.Entries(name), f.logs.Seq(name), f.logs.Cap(), f.logs.Level(name),
		ServerPath(PathUILogLevel, name), now), nil
}

// setLogLevel asks the server for the chosen level and answers with the
// selector again: marked saved, or with the refusal beside it (422). A
// server that is gone is a toast, like every drawer command's.
func (u *drawerUI) setLogLevel(c echo.Context) error {
	name, err := serverName(c)
	if err != nil {
		return err
	}
	if _, err := u.fleet.Status(name); err != nil {
		return err
	}
	level := c.FormValue("level")
	req := c.Request()
	err = u.logs.logs.SetLevel(req.Context(), name, level)
	p := views.NewLogLevelProps(name, u.logs.logs.Level(name), ServerPath(PathUILogLevel, name))
	if err == nil {
		p.Saved = true
		return u.render(c, http.StatusOK, views.LogLevelForm(p))
	}
	ae := classify(err)
	switch ae.code {
	case "bad_request":
		p.Error = "LogLevelInvalid"
	case "not_connected":
		p.Error = "LogLevelNotConnected"
	default:
		logFailure(req.Context(), u.log, req, ae, err)
		p.Error = "LogLevelFailed"
	}
	return u.render(c, http.StatusUnprocessableEntity, views.LogLevelForm(p))
}

// serverLogsAPI is the JSON side: a server's kept log messages and its
// level.
type serverLogsAPI struct {
	feed *serverLogsFeed
}

// ServerLogsDTO is GET .../logs: the kept messages, oldest first, and the
// level a person asked the server for ("" while it keeps its default).
type ServerLogsDTO struct {
	Server string         `json:"server"`
	Level  string         `json:"level"`
	Logs   []ServerLogDTO `json:"logs"`
}

// ServerLogDTO is one log message. Data is the server's data as sent, or
// null when it was too long to keep or held a secret; Text is always
// there, redacted.
type ServerLogDTO struct {
	Seq       uint64          `json:"seq"`
	At        int64           `json:"at"` // ms since the epoch
	Level     string          `json:"level"`
	Logger    string          `json:"logger,omitempty"`
	Data      json.RawMessage `json:"data"`
	Text      string          `json:"text"`
	Truncated bool            `json:"truncated"`
}

// LogLevelBody is the body of PUT .../logs/level.
type LogLevelBody struct {
	Level string `json:"level"`
}

func (a *serverLogsAPI) list(c echo.Context) error {
	name, err := serverName(c)
	if err != nil {
		return err
	}
	if _, err := a.feed.fleet.Status(name); err != nil {
		return err
	}
	logs := a.feed.logs
	dto := ServerLogsDTO{Server: name, Level: logs.Level(name), Logs: []ServerLogDTO{}}
	for _, e := range logs.Entries(name) {
		dto.Logs = append(dto.Logs, ServerLogDTO{Seq: e.Seq, At: e.At.UnixMilli(), Level: e.Level, Logger: e.Logger,
			Data: e.Data, Text: e.Text, Truncated: e.Truncated})
	}
	return c.JSON(http.StatusOK, dto)
}

func (a *serverLogsAPI) setLevel(c echo.Context) error {
	name, err := serverName(c)
	if err != nil {
		return err
	}
	if _, err := a.feed.fleet.Status(name); err != nil {
		return err
	}
	var body LogLevelBody
	shape := &apiError{http.StatusBadRequest, "bad_request", `the body must be {"level": "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency"}`}
	empty, err := readSmallJSON(c, &body, 1024, shape)
	if err != nil {
		return err
	}
	if empty || !domain.ValidLogLevel(body.Level) {
		return shape
	}
	if err := a.feed.logs.SetLevel(c.Request().Context(), name, body.Level); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, LogLevelBody{Level: body.Level})
}
