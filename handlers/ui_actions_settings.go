package handlers

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

// Form field names of the drawer's settings form.
const (
	fieldAutoReconnect = "autoReconnect"
	fieldKeepAlive     = "keepAliveSeconds"
)

// settingsForm is the drawer's settings form as submitted.
type settingsForm struct {
	AutoReconnect bool
	KeepAlive     string // as typed, shown again when refused
}

// override checks the form and converts it. The refusal is a message id
// for beside the field, because the form answers in the person's language.
func (f settingsForm) override() (domain.SettingsOverride, views.Message) {
	s := strings.TrimSpace(f.KeepAlive)
	if s == "" {
		return domain.SettingsOverride{}, views.Message{ID: "SettingKeepAliveRequired"}
	}
	n, err := strconv.Atoi(s)
	var numErr *strconv.NumError
	outOfRange := views.Message{ID: "SettingKeepAliveRange", Data: views.KeepAliveRangeData()}
	switch {
	case errors.As(err, &numErr) && errors.Is(numErr.Err, strconv.ErrRange):
		return domain.SettingsOverride{}, outOfRange
	case err != nil:
		return domain.SettingsOverride{}, views.Message{ID: "SettingKeepAliveNotNumber"}
	}
	ka, err := domain.KeepAliveRange.Seconds(float64(n))
	if err != nil {
		return domain.SettingsOverride{}, outOfRange
	}
	auto := f.AutoReconnect
	return domain.SettingsOverride{AutoReconnect: &auto, KeepAlive: &ka}, views.Message{}
}

// saveSettings stores both settings through the fleet, which applies them
// without reconnecting, and answers with the form: refreshed and marked
// saved, or as typed with the refusal beside the field (422).
func (u *drawerUI) saveSettings(c echo.Context) error {
	name, err := serverName(c)
	if err != nil {
		return err
	}
	st, err := u.fleet.Status(name)
	if err != nil {
		return err
	}
	form := settingsForm{
		AutoReconnect: c.FormValue(fieldAutoReconnect) == "on",
		KeepAlive:     c.FormValue(fieldKeepAlive),
	}
	settingsURL := ServerPath(PathUISettings, name)
	o, refusal := form.override()
	if refusal.ID != "" {
		p := views.NewDrawerSettingsProps(st, settingsURL).WithKeepAliveError(form.AutoReconnect, form.KeepAlive, refusal)
		return u.render(c, http.StatusUnprocessableEntity, views.DrawerSettings(p))
	}
	st, err = u.fleet.UpdateSettings(c.Request().Context(), name, o)
	if err != nil {
		return err
	}
	p := views.NewDrawerSettingsProps(st, settingsURL)
	p.Saved = true
	return u.render(c, http.StatusOK, views.DrawerSettings(p))
}
