package handlers

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/switchboard-mcp/switchboard/domain"
)

// SettingsDTO is the body of PATCH /api/v1/servers/{name}/settings; an
// absent field is left as it is.
type SettingsDTO struct {
	AutoReconnect    *bool    `json:"autoReconnect"`
	KeepAliveSeconds *float64 `json:"keepAliveSeconds"`
}

// Override converts the body into the domain's terms.
func (d SettingsDTO) Override() (domain.SettingsOverride, error) {
	o := domain.SettingsOverride{AutoReconnect: d.AutoReconnect}
	if d.KeepAliveSeconds != nil {
		ka, err := domain.KeepAliveRange.Seconds(*d.KeepAliveSeconds)
		if err != nil {
			return o, &apiError{http.StatusUnprocessableEntity, "invalid_settings", "keepAliveSeconds must be " + domain.KeepAliveRange.Describe()}
		}
		o.KeepAlive = &ka
	}
	return o, nil
}

// updateSettings changes a server's auto-reconnect and keep-alive, stored
// per (user, workspace, server) and applied without reconnecting.
func (a *serversAPI) updateSettings(c echo.Context) error {
	name, err := serverName(c)
	if err != nil {
		return err
	}
	shape := &apiError{http.StatusBadRequest, "bad_request", "the body must be a JSON object with autoReconnect and/or keepAliveSeconds"}
	raw, err := io.ReadAll(http.MaxBytesReader(c.Response(), c.Request().Body, 1<<16))
	if err != nil {
		return shape
	}
	if err := notJSON(raw, "bad_request"); err != nil {
		return err
	}
	var body SettingsDTO
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&body); err != nil {
		return shape
	}
	o, err := body.Override()
	if err != nil {
		return err
	}
	st, err := a.fleet.UpdateSettings(c.Request().Context(), name, o)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, StatusJSON(st))
}
