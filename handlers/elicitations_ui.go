package handlers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

// registerElicitations adds the elicitation API and the dashboard's form
// and drawer list. The drawer's list is served even without the service
// (it answers that nothing waits), since every drawer asks for it.
func registerElicitations(e *echo.Echo, opts Options, prefs *preferences) {
	ui := &elicitationsUI{svc: opts.Elicitations, scope: opts.Scope, validator: opts.Validator, prefs: prefs}
	e.GET(PathUIServerElicitations, ui.drawerList)
	if opts.Elicitations == nil {
		return
	}
	api := &elicitationsAPI{svc: opts.Elicitations, scope: opts.Scope, validator: opts.Validator}
	e.GET(PathElicitations, api.list)
	e.POST(PathElicitation, api.answer)
	e.POST(PathUIElicitation, ui.answer)
}

// elicitationsUI serves the forms a person answers a server's questions
// with, on a call's card or in the server's drawer.
type elicitationsUI struct {
	svc       *domain.Elicitations // nil: nothing is ever asked
	scope     domain.Scope
	validator domain.SchemaValidator
	prefs     *preferences
}

// ElicitationPath is the answer URL of the question with id.
func ElicitationPath(id string) string {
	return strings.Replace(PathUIElicitation, ":"+idParam, id, 1)
}

// elicitationForm is the form of e on the card of its call, or nil.
func elicitationForm(svc *domain.Elicitations, inv domain.Invocation, cardID string) *views.ElicitationFormProps {
	if svc == nil || inv.Status.Final() {
		return nil
	}
	e, ok := svc.ForInvocation(inv.Scope, inv.ID)
	if !ok {
		return nil
	}
	return views.NewElicitationFormProps(e, cardID, ElicitationPath(e.ID))
}

// drawerList answers a server's questions of no call, for the drawer's
// first render; the page event stream keeps the list current afterwards
// (page_events_elicitations.go).
func (u *elicitationsUI) drawerList(c echo.Context) error {
	name, err := serverName(c)
	if err != nil {
		return err
	}
	var es []domain.Elicitation
	if u.svc != nil {
		es = u.svc.ForServer(name)
	}
	p := views.NewDrawerElicitationsProps(es, ElicitationPath)
	return u.render(c, http.StatusOK, views.DrawerElicitationsList(p))
}

// answer takes the form's answer. Accept builds the content from the
// fields as the schema types them; content that breaks the schema, or a
// string that does not match its pattern (checked here, never in the
// browser), comes back as the form with the problems listed and "send
// anyway" offered. A URL-mode accept answers the server and, in the new
// tab the form opened, goes to the address.
func (u *elicitationsUI) answer(c echo.Context) error {
	id := c.Param(idParam)
	e, err := u.svc.Get(u.scope, id)
	if err != nil {
		return err
	}
	form, err := c.FormParams()
	if err != nil {
		return &apiError{http.StatusBadRequest, "bad_request", "the answer must be a form"}
	}
	action := form.Get("action")
	if action != domain.ElicitAccept {
		if err := u.svc.Answer(u.scope, id, domain.ElicitationAnswer{Action: action}); err != nil {
			return err
		}
		return u.answered(c, e, action)
	}
	if e.Mode == domain.ElicitURL {
		if err := u.svc.Answer(u.scope, id, domain.ElicitationAnswer{Action: action}); err != nil {
			return err
		}
		p := views.NewElicitationFormProps(e, "open", "")
		ctx := u.prefs.resolve(c)
		return u.render(c, http.StatusOK, views.ElicitationOpenPage(views.ElicitationOpenProps{Lang: ctx.loc.Lang(), Dir: ctx.loc.Dir(), URL: p.URL, Host: p.Host}))
	}
	fields := views.ElicitFields(e.RequestedSchema, "x")
	content := elicitContent(fields, form)
	if form.Get("anyway") == "" {
		ws := elicitationViolations(u.validator, e.RequestedSchema, content)
		mismatched := domain.ElicitPatternMismatches(e.RequestedSchema, content)
		if len(ws) > 0 || len(mismatched) > 0 {
			// Drawn again where htmx put the form: its id is the target.
			prefix, ok := strings.CutSuffix(c.Request().Header.Get("HX-Target"), views.ElicitationFormID("", id))
			if !ok || prefix == "" {
				prefix = "elicit-" + id
			}
			p := views.NewElicitationFormProps(e, prefix, ElicitationPath(id))
			// This redraw replaces the form on purpose; preserved, htmx
			// would keep the old one and the warnings would never show.
			p.Preserve = false
			refill(p.Fields, form)
			views.MarkPatternMismatches(p.Fields, mismatched)
			for _, w := range withoutPatternRepeats(ws, mismatched) {
				p.Warnings = append(p.Warnings, views.ViolationAtMessage(w))
			}
			p.AnywayBox = true
			return u.render(c, http.StatusOK, views.ElicitationForm(p))
		}
	}
	err = u.svc.Answer(u.scope, id, domain.ElicitationAnswer{Action: domain.ElicitAccept, Content: content})
	if errors.Is(err, domain.ErrBadElicitationAnswer) {
		return &apiError{http.StatusBadRequest, "bad_request", err.Error()}
	}
	if err != nil {
		return err
	}
	return u.answered(c, e, domain.ElicitAccept)
}

// answered tells the page the answer was taken: the outcome for its live
// region, and an event elicitation.js moves focus to the card on, since
// the form the person was in goes away.
func (u *elicitationsUI) answered(c echo.Context, e domain.Elicitation, action string) error {
	c.Response().Header().Set("HX-Trigger", ElicitationAnsweredEvent)
	return u.render(c, http.StatusOK, views.ElicitationAnswered(views.NewElicitationAnsweredProps(e.Server, action)))
}

// ElicitationAnsweredEvent is the event an answered form receives.
const ElicitationAnsweredEvent = "elicitation-answered"

// elicitContent builds the answer's content from the posted form: each
// field typed as its schema says. An empty text or number is left out,
// like an unchosen select; a shown checkbox that is not ticked is false
// (a boolean) or no choice (an array). A number that does not parse is
// sent as the text typed, for the validator to point out.
func elicitContent(fields []views.ElicitFieldProps, form map[string][]string) json.RawMessage {
	out := map[string]any{}
	for _, f := range fields {
		name := strings.TrimPrefix(f.Name, views.ElicitFieldPrefix)
		vals := form[f.Name]
		first := ""
		if len(vals) > 0 {
			first = vals[0]
		}
		switch f.Kind {
		case views.ElicitBool:
			if len(form[views.ElicitShownPrefix+f.Name]) > 0 {
				out[name] = first == "true"
			}
		case views.ElicitChoices:
			if len(form[views.ElicitShownPrefix+f.Name]) > 0 {
				chosen := make([]any, 0, len(vals))
				for _, v := range vals {
					chosen = append(chosen, typedChoice(f, v))
				}
				out[name] = chosen
			}
		case views.ElicitNumber:
			if first == "" {
				continue
			}
			if n, err := strconv.ParseFloat(first, 64); err == nil {
				out[name] = json.Number(strconv.FormatFloat(n, 'f', -1, 64))
			} else {
				out[name] = first
			}
		case views.ElicitSelect:
			if first != "" {
				out[name] = typedChoice(f, first)
			}
		default:
			if first != "" {
				out[name] = first
			}
		}
	}
	b, _ := json.Marshal(out)
	return b
}

// typedChoice is an enum choice as the schema wrote it: a number or a
// boolean when the option was one, else the text.
func typedChoice(f views.ElicitFieldProps, v string) any {
	for _, o := range f.Options {
		if o.Value == v && o.JSON != "" {
			return json.RawMessage(o.JSON)
		}
	}
	return v
}

// refill puts what the person posted back into the fields, so a form
// shown again with warnings keeps their answer.
func refill(fields []views.ElicitFieldProps, form map[string][]string) {
	for i := range fields {
		f := &fields[i]
		vals := form[f.Name]
		switch f.Kind {
		case views.ElicitBool:
			f.Checked = len(vals) > 0 && vals[0] == "true"
		case views.ElicitSelect, views.ElicitChoices:
			for j := range f.Options {
				f.Options[j].Selected = slices.Contains(vals, f.Options[j].Value)
			}
		default:
			f.Value = ""
			if len(vals) > 0 {
				f.Value = vals[0]
			}
		}
	}
}

func (u *elicitationsUI) render(c echo.Context, status int, comp templ.Component) error {
	ctx := u.prefs.resolve(c).context(c.Request().Context())
	var buf bytes.Buffer
	if err := comp.Render(ctx, &buf); err != nil {
		return fmt.Errorf("render elicitation fragment: %w", err)
	}
	h := c.Response().Header()
	h.Set("Cache-Control", "no-store")
	h.Set("Vary", "Accept-Language, Cookie")
	return c.HTMLBlob(status, buf.Bytes())
}

// withoutPatternRepeats leaves out the validator's own words about a
// pattern the form already flags, localized, next to the field and in
// its list: one mismatch is said once.
func withoutPatternRepeats(ws []domain.Violation, mismatched []string) []domain.Violation {
	out := ws[:0:0]
	for _, w := range ws {
		name, isField := strings.CutPrefix(w.Pointer, "/")
		if isField && slices.Contains(mismatched, name) && w.Key == "SchemaPattern" {
			continue
		}
		out = append(out, w)
	}
	return out
}
