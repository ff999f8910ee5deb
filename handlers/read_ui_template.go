package handlers

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"
	"github.com/yosida95/uritemplate/v3"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

// UITemplatePath is PathUITemplate for one server with template as its
// query.
func UITemplatePath(server, template string) string {
	return ServerPath(PathUITemplate, server) + "?" + url.Values{"template": {template}}.Encode()
}

// registerTemplates serves the form that fills a resource template's
// variables, its completions, and the read of the URI it makes.
func (u *readUI) registerTemplates(e *echo.Echo) {
	e.GET(PathUITemplate, u.templateForm)
	e.POST(PathUITemplateRead, u.templateRead)
	e.GET(PathUITemplateComplete, u.templateComplete)
}

// templateForm answers with one field per variable of the template.
func (u *readUI) templateForm(c echo.Context) error {
	server, raw, tmpl, err := u.template(c)
	if err != nil {
		return u.failed(c, server, err)
	}
	q := "?" + url.Values{"template": {raw}}.Encode()
	form := views.NewTemplateFormProps(views.PromptKey(server, raw), raw, tmpl.Varnames(),
		ServerPath(PathUITemplateRead, server)+q, ServerPath(PathUITemplateComplete, server)+q)
	return u.render(c, http.StatusOK, views.PromptForm(form))
}

// templateRead expands the template with the form's values (an empty one
// expands to nothing, as RFC 6570 says of an undefined variable) and
// answers with the resource it names, rendered.
func (u *readUI) templateRead(c echo.Context) error {
	server, _, tmpl, err := u.template(c)
	if err != nil {
		return u.failed(c, server, err)
	}
	vals := uritemplate.Values{}
	for _, v := range tmpl.Varnames() {
		if s := c.FormValue(views.PromptArgField(v)); s != "" {
			vals.Set(v, uritemplate.String(s))
		}
	}
	uri, err := tmpl.Expand(vals)
	if err != nil || uri == "" {
		return u.failed(c, server, fmt.Errorf("expand %q: %w", tmpl.Raw(), domain.ErrInvalidRequest))
	}
	raw, err := u.fleet.ReadResource(c.Request().Context(), server, uri)
	if err != nil {
		return u.failed(c, server, err)
	}
	return u.render(c, http.StatusOK, views.ResourceRead(views.NewResourceRead(uri, raw, ResourceReadPath(server, uri))))
}

// templateComplete answers with the server's completions of one variable,
// the others as context; like a prompt's, a failure shows as no options.
func (u *readUI) templateComplete(c echo.Context) error {
	server, raw, tmpl, err := u.template(c)
	if err != nil {
		return u.render(c, http.StatusOK, views.CompletionOptions(nil))
	}
	name := c.QueryParam("complete")
	req := domain.CompleteRequest{Ref: domain.CompletionRef{Type: domain.RefResource, URI: raw}, Argument: name}
	known := false
	for _, v := range tmpl.Varnames() {
		s := c.QueryParam(views.PromptArgField(v))
		if v == name {
			req.Value, known = s, true
		} else if s != "" {
			if req.Context == nil {
				req.Context = map[string]string{}
			}
			req.Context[v] = s
		}
	}
	if !known {
		return u.render(c, http.StatusOK, views.CompletionOptions(nil))
	}
	res, err := u.fleet.Complete(c.Request().Context(), server, req)
	if err != nil {
		u.log.LogAttrs(c.Request().Context(), slog.LevelDebug, "completion failed",
			slog.String("server", server), slog.String("template", raw), slog.Any("error", err))
		return u.render(c, http.StatusOK, views.CompletionOptions(nil))
	}
	return u.render(c, http.StatusOK, views.CompletionOptions(views.CompletionValues(res)))
}

// template reads the server of the path and the template of the query,
// which must be one the server lists, and parses it.
func (u *readUI) template(c echo.Context) (server, raw string, tmpl *uritemplate.Template, err error) {
	if server, err = serverName(c); err != nil {
		return "", "", nil, err
	}
	raw = c.QueryParam("template")
	caps, err := u.fleet.Capabilities(server)
	if err != nil {
		return server, raw, nil, err
	}
	for _, t := range caps.ResourceTemplates {
		if t.URITemplate != raw {
			continue
		}
		tmpl, err := uritemplate.New(raw)
		if err != nil {
			return server, raw, nil, fmt.Errorf("resource template %q of %q: %w", raw, server, domain.ErrInvalidRequest)
		}
		return server, raw, tmpl, nil
	}
	return server, raw, nil, fmt.Errorf("resource template %q on server %q: %w", raw, server, domain.ErrNotFound)
}
