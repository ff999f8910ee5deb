package handlers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"unicode"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

// invocationUI serves the cards' fragments and actions as HTML in the
// person's language. Live changes reach cards through the page stream;
// these endpoints answer what a person asks for.
type invocationUI struct {
	svc   *domain.Invocations
	cards *cardRenderer
	scope domain.Scope
	prefs *preferences
}

// card renders one card, or with ?item=N one content item in full (the
// "Show the full text" of a text past the inline cap).
func (u *invocationUI) card(c echo.Context) error {
	inv, err := u.svc.Get(c.Request().Context(), u.scope, c.Param(idParam))
	if err != nil {
		return err
	}
	if v := c.QueryParam(itemParam); v != "" {
		raw, i, err := contentItem(inv, v)
		if err != nil {
			return err
		}
		it := views.NewContentItem(i, raw, u.cards.contentURLs(inv.ID), true)
		return u.render(c, views.ContentItem(it))
	}
	return u.render(c, views.InvocationCard(u.cards.props(inv, views.CardInFeed, false)))
}

// downloadParam asks the copy endpoint for the part as stored, as a file:
// the "download raw" of whatever a card cut short.
const downloadParam = "download"

// copyText answers the full arguments or the full text of the result as
// plain text, whatever the card shows clipped (arguments over
// views.ArgsLongLines collapse, long text is cut); with
// ?download=1, the part exactly as stored, as a file.
func (u *invocationUI) copyText(c echo.Context) error {
	inv, err := u.svc.Get(c.Request().Context(), u.scope, c.Param(idParam))
	if err != nil {
		return err
	}
	part := c.QueryParam(partParam)
	if part != "arguments" && part != "result" {
		return &apiError{http.StatusBadRequest, "bad_request", "part must be arguments or result"}
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	if c.QueryParam(downloadParam) != "" {
		return rawDownload(c, inv, part)
	}
	text := resultText(inv)
	if part == "arguments" {
		text = prettyOrRaw(inv.Arguments)
	}
	return c.Blob(http.StatusOK, "text/plain; charset=utf-8", []byte(text))
}

// rawDownload answers one part of a call byte for byte as stored, as an
// attachment: JSON when it is JSON (a truncated result is not), else
// text, such as the error of a call that has no result.
func rawDownload(c echo.Context, inv domain.Invocation, part string) error {
	data := []byte(inv.Arguments)
	if part == "result" {
		data = inv.Result
		if len(data) == 0 {
			data = []byte(inv.Error)
		}
	}
	mime, ext := "application/json", "json"
	if !json.Valid(data) {
		mime, ext = "text/plain; charset=utf-8", "txt"
	}
	name := fmt.Sprintf("invocation-%s-%s.%s", fileSafe(inv.ID), part, ext)
	c.Response().Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
	return c.Blob(http.StatusOK, mime, data)
}

// fileSafe keeps the letters, digits, dashes and underscores of s, so it
// can go in a header's filename as is.
func fileSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 128 && (r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return r
		}
		return -1
	}, s)
}

// read previews a resource the result links to. Only URIs the result
// itself names are read, so the endpoint cannot be aimed at anything else
// on the server.
func (u *invocationUI) read(c echo.Context) error {
	ctx := c.Request().Context()
	inv, err := u.svc.Get(ctx, u.scope, c.Param(idParam))
	if err != nil {
		return err
	}
	uri := c.QueryParam("uri")
	if !linksTo(inv.Result, uri) {
		return &apiError{http.StatusNotFound, "not_found", "the result links to no such resource"}
	}
	raw, err := u.cards.fleet.ReadResource(ctx, inv.ServerName, uri)
	if err != nil {
		return u.readFailed(c, inv.ServerName, err)
	}
	return u.render(c, views.ResourcePreview(views.NewResourcePreview(raw)))
}

// retry runs the call again; the new card arrives on the page stream.
func (u *invocationUI) retry(c echo.Context) error {
	if _, err := u.svc.Retry(c.Request().Context(), u.scope, c.Param(idParam)); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// stop cancels the call; the cancelled card arrives on the page stream.
func (u *invocationUI) stop(c echo.Context) error {
	if _, err := u.svc.Cancel(c.Request().Context(), u.scope, c.Param(idParam)); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// history renders a server's recent calls for its drawer. The page's
// own list of calls is the Calls section (calls_ui.go).
func (u *invocationUI) history(c echo.Context) error {
	f := domain.InvocationFilter{ServerName: c.QueryParam("server"), Limit: views.DrawerFeedLimit, Preview: true}
	invs, err := u.svc.List(c.Request().Context(), u.scope, f)
	if err != nil {
		return err
	}
	if len(invs) > f.Limit {
		invs = invs[:f.Limit]
	}
	return u.render(c, views.DrawerFeed(views.FeedProps{Cards: u.cards.list(invs, views.CardInDrawer)}))
}

// render writes a buffered fragment in the person's language.
func (u *invocationUI) render(c echo.Context, comp templ.Component) error {
	return u.renderStatus(c, http.StatusOK, comp)
}

// renderStatus is render with a status other than 200, for a fragment
// that says why something failed.
func (u *invocationUI) renderStatus(c echo.Context, status int, comp templ.Component) error {
	ctx := u.prefs.resolve(c).context(c.Request().Context())
	var buf bytes.Buffer
	if err := comp.Render(ctx, &buf); err != nil {
		return fmt.Errorf("render invocation fragment: %w", err)
	}
	h := c.Response().Header()
	h.Set("Cache-Control", "no-store")
	h.Set("Vary", "Accept-Language, Cookie")
	return c.HTMLBlob(status, buf.Bytes())
}

// resultText is the text a person copies from a result: every text item
// and embedded text resource, in order; the error when there is no
// result; the JSON when the result holds no text at all.
func resultText(inv domain.Invocation) string {
	r := domain.ParseResult(inv.Result)
	var parts []string
	for _, raw := range r.Content {
		var it struct {
			Type     string `json:"type"`
			Text     string `json:"text"`
			Resource *struct {
				Text *string `json:"text"`
			} `json:"resource"`
		}
		if json.Unmarshal(raw, &it) != nil {
			continue
		}
		switch {
		case it.Type == "text":
			parts = append(parts, it.Text)
		case it.Type == "resource" && it.Resource != nil && it.Resource.Text != nil:
			parts = append(parts, *it.Resource.Text)
		}
	}
	switch {
	case len(parts) > 0:
		return strings.Join(parts, "\n\n")
	case len(inv.Result) > 0:
		return prettyOrRaw(inv.Result)
	}
	return inv.Error
}

// prettyOrRaw indents raw JSON for copying. Indenting is quadratic in
// depth, so JSON nested deeper than a card would show is copied as stored.
func prettyOrRaw(raw json.RawMessage) string {
	if domain.CheckJSONDepth(raw, views.JSONViewDepth) != nil {
		return string(raw)
	}
	return string(domain.IndentJSON(raw, ""))
}

// linksTo reports whether the result holds a resource_link to uri.
func linksTo(result json.RawMessage, uri string) bool {
	if uri == "" {
		return false
	}
	for _, raw := range domain.ParseResult(result).Content {
		var it struct{ Type, URI string }
		if json.Unmarshal(raw, &it) == nil && it.Type == "resource_link" && it.URI == uri {
			return true
		}
	}
	return false
}

// invocationUIPath fills a card endpoint for id, with query values.
func invocationUIPath(pattern, id string, q url.Values) string {
	p := InvocationPath(pattern, id)
	if len(q) > 0 {
		p += "?" + q.Encode()
	}
	return p
}
