package handlers

import (
	"context"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/locales"
	"github.com/switchboard-mcp/switchboard/views"
)

// Preference keys in domain.PreferenceStore, and the cookies that carry
// the same choices when there is no store.
const (
	prefLang     = "lang"
	prefTheme    = "theme"
	themeCookie  = "theme"
	prefPreset   = "preset"
	presetCookie = "preset"
)

// prefCookieAge keeps a choice for a year; it is renewed on every change.
const prefCookieAge = 365 * 24 * time.Hour

// preferences reads and writes a person's theme and language. Every page
// response negotiates through it, so the page and its event stream can
// never speak different languages.
type preferences struct {
	store   domain.PreferenceStore // nil keeps choices in cookies only
	catalog *locales.Catalog
	log     *slog.Logger
}

// choice is what a request resolved to.
type choice struct {
	loc *locales.Localizer
	// lang is the language the person chose, stored or in a cookie;
	// empty when the browser's Accept-Language decides.
	lang   string
	theme  string
	preset string
}

// resolve picks the language (stored preference, then cookie, then
// Accept-Language) and the theme (stored, then cookie, then "system"). A
// failing store is logged and skipped: the page still renders.
func (p *preferences) resolve(c echo.Context) choice {
	var stored map[string]string
	if p.store != nil {
		var err error
		stored, err = p.store.Preferences(c.Request().Context(), domain.LocalUser)
		if err != nil {
			p.log.LogAttrs(c.Request().Context(), slog.LevelWarn, "read preferences", slog.Any("error", err))
		}
	}
	var langs []string
	chosen := stored[prefLang]
	if chosen != "" {
		langs = append(langs, chosen)
	}
	if ck, err := c.Cookie(langCookie); err == nil && ck.Value != "" {
		langs = append(langs, ck.Value)
		if chosen == "" {
			chosen = ck.Value
		}
	}
	if !slices.Contains(views.Languages, chosen) {
		chosen = ""
	}
	langs = append(langs, c.Request().Header.Get("Accept-Language"))
	theme := stored[prefTheme]
	if theme == "" {
		if ck, err := c.Cookie(themeCookie); err == nil {
			theme = ck.Value
		}
	}
	preset := stored[prefPreset]
	if preset == "" {
		if ck, err := c.Cookie(presetCookie); err == nil {
			preset = ck.Value
		}
	}
	return choice{loc: p.catalog.Localizer(langs...), lang: chosen, theme: views.NormalTheme(theme), preset: views.NormalPreset(preset)}
}

// context returns the request context carrying the resolved localizer
// and style preset.
func (ch choice) context(ctx context.Context) context.Context {
	ctx = views.WithLinks(ctx, viewLinks)
	return views.WithPreset(locales.WithLocalizer(ctx, ch.loc), ch.preset)
}

// save stores the theme, preset and language posted by the page's switcher.
// Any field may be absent, and with htmx each select posts only itself, so
// a change of theme or preset never stores the language the page happens
// to be shown in; a present field must be a known value. Language
// views.LangAuto clears the choice, so Accept-Language decides again. htmx
// asks for a full reload (HX-Refresh), a plain form gets a redirect to the
// page.
func (p *preferences) save(c echo.Context) error {
	theme, hasTheme := formValue(c, prefTheme)
	lang, hasLang := formValue(c, prefLang)
	preset, hasPreset := formValue(c, prefPreset)
	if !hasTheme && !hasLang && !hasPreset {
		return &apiError{status: http.StatusBadRequest, code: "missing_preference", message: "send theme, preset or lang"}
	}
	if hasPreset && !slices.Contains(views.Presets, preset) {
		return &apiError{status: http.StatusUnprocessableEntity, code: "invalid_preset", message: "preset must be one of " + strings.Join(views.Presets, ", ")}
	}
	if hasTheme && !slices.Contains(views.Themes, theme) {
		return &apiError{status: http.StatusUnprocessableEntity, code: "invalid_theme", message: "theme must be system, light or dark"}
	}
	if hasLang && lang != views.LangAuto && !slices.Contains(views.Languages, lang) {
		return &apiError{status: http.StatusUnprocessableEntity, code: "invalid_lang", message: "lang must be auto, en, pt-BR or zh-Hans"}
	}
	ctx := c.Request().Context()
	if lang == views.LangAuto {
		if err := p.forgetLang(c); err != nil {
			return err
		}
		lang = ""
	}
	for _, kv := range [][3]string{{prefTheme, theme, themeCookie}, {prefLang, lang, langCookie}, {prefPreset, preset, presetCookie}} {
		if kv[1] == "" {
			continue
		}
		if p.store != nil {
			if err := p.store.SetPreference(ctx, domain.LocalUser, kv[0], kv[1]); err != nil {
				return err
			}
		}
		c.SetCookie(&http.Cookie{Name: kv[2], Value: kv[1], Path: "/", MaxAge: int(prefCookieAge / time.Second),
			HttpOnly: true, SameSite: http.SameSiteStrictMode})
	}
	if c.Request().Header.Get("HX-Request") == "true" {
		c.Response().Header().Set("HX-Refresh", "true")
		return c.NoContent(http.StatusOK)
	}
	return c.Redirect(http.StatusSeeOther, PathDashboard)
}

// forgetLang clears a stored language and its cookie: an empty stored
// value is no choice, as resolve reads it.
func (p *preferences) forgetLang(c echo.Context) error {
	if p.store != nil {
		if err := p.store.SetPreference(c.Request().Context(), domain.LocalUser, prefLang, ""); err != nil {
			return err
		}
	}
	c.SetCookie(&http.Cookie{Name: langCookie, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteStrictMode})
	return nil
}

// formValue returns a form field and whether it was sent at all.
func formValue(c echo.Context, key string) (string, bool) {
	if err := c.Request().ParseForm(); err != nil {
		return "", false
	}
	vs, ok := c.Request().PostForm[key]
	if !ok || len(vs) == 0 {
		return "", false
	}
	return vs[0], true
}
