package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/switchboard-mcp/switchboard/domain"
)

// configEvent names the event carrying the settings state after a reload.
const configEvent = "config"

// ConfigDTO is the settings state: where servers come from, when they
// were last reloaded and why the newest edit was not applied, if it was not.
type ConfigDTO struct {
	Sources      []ConfigSourceDTO `json:"sources"`
	LastReloadAt *int64            `json:"lastReloadAt"`
	Error        *ConfigErrorDTO   `json:"error"`
}

// ConfigSourceDTO is one settings file.
type ConfigSourceDTO struct {
	Path    string   `json:"path"`
	Scope   string   `json:"scope"`
	Servers []string `json:"servers"`
}

// ConfigErrorDTO points at what is wrong in a settings file.
type ConfigErrorDTO struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Server  string `json:"server,omitempty"`
	Message string `json:"message"`
}

// ConfigJSON converts the reloader's state into its wire form.
func ConfigJSON(st domain.ConfigState) ConfigDTO {
	d := ConfigDTO{Sources: []ConfigSourceDTO{}, LastReloadAt: epochMillis(st.LastReloadAt)}
	for _, s := range st.Sources {
		names := s.Servers
		if names == nil {
			names = []string{}
		}
		d.Sources = append(d.Sources, ConfigSourceDTO{Path: s.Path, Scope: s.Scope, Servers: names})
	}
	if e := st.Error; e != nil {
		d.Error = &ConfigErrorDTO{File: e.File, Line: e.Line, Column: e.Column, Server: e.Server, Message: e.Message}
	}
	return d
}

// configAPI serves the settings state and reloads on request.
type configAPI struct {
	reloader *domain.Reloader // nil in demo mode
}

func (a *configAPI) get(c echo.Context) error {
	if a.reloader == nil {
		return c.JSON(http.StatusOK, ConfigJSON(domain.ConfigState{}))
	}
	return c.JSON(http.StatusOK, ConfigJSON(a.reloader.State()))
}

func (a *configAPI) reload(c echo.Context) error {
	if a.reloader == nil {
		return &apiError{http.StatusConflict, "demo_mode", "the built-in demo has no settings file to reload"}
	}
	st, _, err := a.reloader.Reload(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, ConfigJSON(st))
}

// appendConfigEvent writes the settings state as an event; the id is the
// state's version.
func appendConfigEvent(buf []byte, st domain.ConfigState) ([]byte, error) {
	return appendJSONEvent(buf, configEvent, st.Version, ConfigJSON(st))
}
