package handlers

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

// readUI is the drawer's Read and Get: the same reads as readAPI, answered
// with HTML fragments that render what the server sent as a call's result
// is rendered. Nothing is recorded, since none of them changes anything.
type readUI struct {
	fleet *domain.Fleet
	prefs *preferences
	log   *slog.Logger
}

// capsAnswerHeader marks a failure fragment of these routes, so that the
// page's script swaps it in place although its status says it failed.
const capsAnswerHeader = "X-Switchboard-Caps"

// UIResourceReadPath is PathUIResourceRead for one server with uri as its
// query.
func UIResourceReadPath(server, uri string) string {
	return ServerPath(PathUIResourceRead, server) + "?" + url.Values{"uri": {uri}}.Encode()
}

// UIPromptGetPath fills PathUIPromptGet for one server and prompt, both
// escaped.
func UIPromptGetPath(server, prompt string) string {
	return pathWith(ServerPath(PathUIPromptGet, server), promptParam, prompt)
}

// UIPromptCompletePath fills PathUIPromptComplete for one server and
// prompt, both escaped.
func UIPromptCompletePath(server, prompt string) string {
	return pathWith(ServerPath(PathUIPromptComplete, server), promptParam, prompt)
}

// registerReadUI serves the drawer's Read and Get fragments.
func registerReadUI(e *echo.Echo, opts Options, prefs *preferences) {
	u := &readUI{fleet: opts.Fleet, prefs: prefs, log: opts.Log}
	e.GET(PathUIResourceRead, u.readResource)
	e.GET(PathUIPromptGet, u.promptForm)
	e.POST(PathUIPromptGet, u.getPrompt)
	e.GET(PathUIPromptComplete, u.complete)
	u.registerTemplates(e)
}

// readResource answers GET ?uri= with the resource's contents rendered.
func (u *readUI) readResource(c echo.Context) error {
	server, err := serverName(c)
	if err != nil {
		return err
	}
	uri := c.QueryParam("uri")
	if uri == "" {
		return u.failed(c, server, &apiError{http.StatusBadRequest, "bad_request", "the uri query parameter is required"})
	}
	raw, err := u.fleet.ReadResource(c.Request().Context(), server, uri)
	if err != nil {
		return u.failed(c, server, err)
	}
	return u.render(c, http.StatusOK, views.ResourceRead(views.NewResourceRead(uri, raw, ResourceReadPath(server, uri))))
}

// promptForm answers with a prompt's argument form, built from the
// prompt as the server listed it.
func (u *readUI) promptForm(c echo.Context) error {
	server, prompt, p, err := u.prompt(c)
	if err != nil {
		return u.failed(c, server, err)
	}
	form := views.NewPromptFormProps(views.PromptKey(server, prompt), p,
		UIPromptGetPath(server, prompt), UIPromptCompletePath(server, prompt))
	return u.render(c, http.StatusOK, views.PromptForm(form))
}

// getPrompt sends prompts/get with the form's arguments and answers with
// the messages rendered. An empty optional argument is left out; an empty
// required one is refused before the server is asked.
func (u *readUI) getPrompt(c echo.Context) error {
	server, prompt, p, err := u.prompt(c)
	if err != nil {
		return u.failed(c, server, err)
	}
	args := map[string]string{}
	for _, a := range p.Args {
		v := c.FormValue(views.PromptArgField(a.Name))
		switch {
		case v != "":
			args[a.Name] = v
		case a.Required:
			return u.refuse(c, views.Message{ID: "CapsErrRequired", Data: map[string]any{"Arg": a.Name}})
		}
	}
	raw, err := u.fleet.GetPrompt(c.Request().Context(), server, prompt, args)
	if err != nil {
		return u.failed(c, server, err)
	}
	read := func(uri string) string { return UIResourceReadPath(server, uri) }
	return u.render(c, http.StatusOK, views.PromptMessages(views.NewPromptMessages(views.PromptKey(server, prompt), raw, read)))
}

// complete answers GET ?complete=<argument>&arg.<name>=… with the
// server's completions of that argument as datalist options; the other
// arguments go along as context. A server that cannot complete leaves
// the list empty: suggestions are a help, not an answer, so a failure is
// logged at debug level and shown as nothing.
func (u *readUI) complete(c echo.Context) error {
	server, prompt, p, err := u.prompt(c)
	if err != nil {
		return u.render(c, http.StatusOK, views.CompletionOptions(nil))
	}
	name := c.QueryParam("complete")
	req := domain.CompleteRequest{Ref: domain.CompletionRef{Type: domain.RefPrompt, Name: prompt}, Argument: name}
	known := false
	for _, a := range p.Args {
		v := c.QueryParam(views.PromptArgField(a.Name))
		if a.Name == name {
			req.Value, known = v, true
		} else if v != "" {
			if req.Context == nil {
				req.Context = map[string]string{}
			}
			req.Context[a.Name] = v
		}
	}
	if !known {
		return u.render(c, http.StatusOK, views.CompletionOptions(nil))
	}
	raw, err := u.fleet.Complete(c.Request().Context(), server, req)
	if err != nil {
		u.log.LogAttrs(c.Request().Context(), slog.LevelDebug, "completion failed",
			slog.String("server", server), slog.String("prompt", prompt), slog.Any("error", err))
		return u.render(c, http.StatusOK, views.CompletionOptions(nil))
	}
	return u.render(c, http.StatusOK, views.CompletionOptions(views.CompletionValues(raw)))
}

// prompt reads the server and prompt of the path and finds the prompt in
// the server's last list, which says which arguments it takes.
func (u *readUI) prompt(c echo.Context) (server, prompt string, p views.PromptProps, err error) {
	if server, err = serverName(c); err != nil {
		return "", "", p, err
	}
	if prompt, err = pathName(c, promptParam, "prompt"); err != nil {
		return server, "", p, err
	}
	caps, err := u.fleet.Capabilities(server)
	if err != nil {
		return server, prompt, p, err
	}
	for _, pr := range caps.Prompts {
		if pr.Name != prompt {
			continue
		}
		p = views.PromptProps{Name: pr.Name, Description: pr.Description}
		for _, a := range pr.Arguments {
			p.Args = append(p.Args, views.PromptArgProps{Name: a.Name, Description: a.Description, Required: a.Required})
		}
		return server, prompt, p, nil
	}
	return server, prompt, p, fmt.Errorf("prompt %q on server %q: %w", prompt, server, domain.ErrPromptNotFound)
}

// failed answers a read that did not work with a localized message where
// its answer would have gone, in the server's own words when the server
// refused, and logs the error once, here at the edge.
func (u *readUI) failed(c echo.Context, server string, err error) error {
	p := classify(err)
	req := c.Request()
	logFailure(req.Context(), u.log, req, p, err)
	return u.refuseStatus(c, p.status, capsFailure(server, p.code, err))
}

// refuse answers 422 with msg, for a form the person can correct.
func (u *readUI) refuse(c echo.Context, msg views.Message) error {
	return u.refuseStatus(c, http.StatusUnprocessableEntity, msg)
}

func (u *readUI) refuseStatus(c echo.Context, status int, msg views.Message) error {
	c.Response().Header().Set(capsAnswerHeader, "failure")
	return u.render(c, status, views.CapsFailure(msg))
}

// capsFailure words a failed read for the person who asked; the domain's
// English texts stay in the log.
func capsFailure(server, code string, err error) views.Message {
	data := map[string]any{"Name": server}
	var se *domain.ServerError
	if errors.As(err, &se) {
		data["Message"] = serverMessage(se.Message)
		return views.Message{ID: "CapsErrRefused", Data: data}
	}
	ids := map[string]string{
		"not_connected":     "CapsErrNotConnected",
		"timeout":           "CapsErrTimeout",
		"not_found":         "CapsErrNotFound",
		"server_disabled":   "CapsErrDisabled",
		"blocked":           "CapsErrDisabled",
		"connection_failed": "CapsErrConnection",
		"bad_request":       "CapsErrBadRequest",
		"bad_arguments":     "CapsErrBadRequest",
		"shutting_down":     "CapsErrShuttingDown",
	}
	if id, ok := ids[code]; ok {
		return views.Message{ID: id, Data: data}
	}
	return views.Message{ID: "CapsErrFailed", Data: data}
}

// render writes a fragment in the page's language; these answers depend
// on the server's state, so they are never cached.
func (u *readUI) render(c echo.Context, status int, comp templ.Component) error {
	ctx := u.prefs.resolve(c).context(c.Request().Context())
	var buf bytes.Buffer
	if err := comp.Render(ctx, &buf); err != nil {
		return fmt.Errorf("render read fragment: %w", err)
	}
	h := c.Response().Header()
	h.Set("Cache-Control", "no-store")
	h.Set("Vary", "Accept-Language, Cookie")
	return c.HTMLBlob(status, buf.Bytes())
}
