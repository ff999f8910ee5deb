package handlers

import (
	"errors"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

// previewMessageRunes bounds how much of a server's message a toast
// shows: a server decides its length, a person reads a sentence.
const previewMessageRunes = 500

// readFailed answers a resource preview that could not be read with a
// localized toast in the page's alert region that says why, in the
// server's own words when the server refused the read, and returns err so
// that the edge logs it once (it writes nothing more to a committed
// response).
func (u *invocationUI) readFailed(c echo.Context, server string, err error) error {
	p := classify(err)
	id := "PreviewReadFailed"
	data := map[string]any{"Name": server}
	var se *domain.ServerError
	switch {
	case errors.As(err, &se):
		id, data["Message"] = "PreviewServerRefused", serverMessage(se.Message)
	case p.code == "not_connected":
		id = "PreviewNotConnected"
	}
	hdr := c.Response().Header()
	hdr.Set("HX-Retarget", toastTarget)
	hdr.Set("HX-Reswap", "innerHTML")
	if rerr := u.renderStatus(c, p.status, views.Toast(views.NewToastProps(p.code, id, data))); rerr != nil {
		return errors.Join(err, rerr)
	}
	return err
}

// serverMessage is a server's error text as a toast shows it: on one
// line, without characters that hide or reorder text, and cut to
// previewMessageRunes. The template escapes what is left.
func serverMessage(msg string) string {
	msg = strings.Join(strings.Fields(strings.Map(func(r rune) rune {
		switch {
		case r == '\n', r == '\t', r == '\r':
			return ' '
		case domain.IsDisplayControl(r):
			return -1
		}
		return r
	}, msg)), " ")
	if r := []rune(msg); len(r) > previewMessageRunes {
		msg = string(r[:previewMessageRunes]) + "…"
	}
	return msg
}
