package handlers

import (
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

// itemParam picks one content item of a result, by index.
const itemParam = "item"

// media answers one image, audio or embedded blob of a result as its
// bytes, so that a card can point at a large item instead of carrying it
// as base64 to every open page. Only the image and audio types a card
// shows are answered inline; anything else (SVG, HTML, any other blob) is
// an attachment the browser must not render.
func (u *invocationUI) media(c echo.Context) error {
	inv, err := u.svc.Get(c.Request().Context(), u.scope, c.Param(idParam))
	if err != nil {
		return err
	}
	raw, i, err := contentItem(inv, c.QueryParam(itemParam))
	if err != nil {
		return err
	}
	m, ok := views.ContentMedia(raw)
	if !ok {
		return &apiError{http.StatusNotFound, "not_found", "this content item holds no valid image, audio or blob"}
	}
	h := c.Response().Header()
	h.Set("X-Content-Type-Options", "nosniff")
	// A result never changes once stored, so the browser may keep its
	// media while a card is swapped again and again.
	h.Set("Cache-Control", "private, max-age=3600")
	if !inv.Status.Final() {
		h.Set("Cache-Control", "no-store")
	}
	if !m.Inline {
		name := m.FileName
		if name == "" {
			name = fmt.Sprintf("invocation-%s-item-%d", fileSafe(inv.ID), i)
		}
		h.Set("Content-Disposition", attachment(name))
		// Opened anyway, an attachment runs no script and loads nothing.
		csp := "sandbox"
		if base := h.Get("Content-Security-Policy"); base != "" {
			csp = base + "; " + csp
		}
		h.Set("Content-Security-Policy", csp)
	}
	return c.Blob(http.StatusOK, m.MIME, m.Data)
}

// contentItem picks the content item a request names by index, with
// that index.
func contentItem(inv domain.Invocation, v string) (json.RawMessage, int, error) {
	r := domain.ParseResult(inv.Result)
	i, err := strconv.Atoi(v)
	if err != nil || i < 0 || i >= len(r.Content) {
		return nil, 0, &apiError{http.StatusNotFound, "not_found", "no such content item"}
	}
	return r.Content[i], i, nil
}

// attachment is a Content-Disposition that downloads a file named name,
// quoted or encoded as the name needs.
func attachment(name string) string {
	if v := mime.FormatMediaType("attachment", map[string]string{"filename": name}); v != "" {
		return v
	}
	return "attachment"
}
