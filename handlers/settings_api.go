package handlers

import (
	"encoding/json"
	"math"
	"net/http"
	"time"

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
		s := *d.KeepAliveSeconds
		if math.IsNaN(s) || math.IsInf(s, 0) || s < 0 || s > domain.MaxKeepAlive.Seconds() {
			return o, &apiError{http.StatusUnprocessableEntity, "invalid_settings", "keepAliveSeconds must be 0 (off) or between 1 and 3600"}
		}
		ka := time.Duration(s * float64(time.Second))
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
	var body SettingsDTO
	dec := json.NewDecoder(http.MaxBytesReader(c.Response(), c.Request().Body, 1<<16))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&body); err != nil {
		return &apiError{http.StatusBadRequest, "bad_request", "the body must be a JSON object with autoReconnect and/or keepAliveSeconds"}
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
