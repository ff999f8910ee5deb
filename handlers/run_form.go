package handlers

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

// conversationCookie holds the conversation a browser session's calls
// belong to. It lives as long as the session, like a chat would.
const conversationCookie = "sb_conversation"

// runForm serves the dialog that calls a tool from the drawer and starts
// the calls it submits. The card itself reaches the page through the
// event stream; the drawer puts it under the form that started it.
type runForm struct {
	invocations *domain.Invocations
	scope       domain.Scope
	ui          *drawerUI // rendering in the page's language, and its toast
}

// show renders the form of one tool, prefilled with the schema's
// defaults, or, for Edit and re-run (?from=<invocation id>), with the
// arguments that call sent.
func (r *runForm) show(c echo.Context) error {
	server, tool, err := r.tool(c)
	if err != nil {
		return err
	}
	in := views.RunFormInput{Server: server, Tool: tool, Action: RunFormPath(server, tool.Name)}
	if id := c.QueryParam(views.RunFromParam); id != "" {
		if err := r.prefill(c, id, &in); err != nil {
			return err
		}
	}
	return r.ui.render(c, http.StatusOK, views.RunForm(views.NewRunFormProps(in)))
}

// prefill fills the form with the arguments call id sent: in the fields
// when each has one, else on the Raw JSON tab. A call of another server
// or tool is not found here, so a link cannot mix one tool's form with
// another's arguments.
func (r *runForm) prefill(c echo.Context, id string, in *views.RunFormInput) error {
	inv, err := r.invocations.Get(c.Request().Context(), r.scope, id)
	if err != nil {
		return err
	}
	if inv.ServerName != in.Server || inv.Tool != in.Tool.Name {
		return fmt.Errorf("call %q of %s/%s: %w", id, in.Server, in.Tool.Name, domain.ErrInvocationNotFound)
	}
	values, fits := views.RunValuesFromArgs(views.RunFieldsFromSchema(in.Tool.InputSchema), inv.Arguments)
	in.Raw = views.RunRawFromArgs(inv.Arguments)
	in.AsTask = inv.Task != nil
	if fits {
		in.Values = values
	} else {
		in.Mode = views.RunModeRaw
	}
	return nil
}

// submit builds the arguments (from the fields, coerced per schema, or
// from the raw JSON), starts the call and answers with a confirmation; a
// refusal answers 422 with the form again, each reason beside its field
// (or, on the Raw JSON tab, beside the text exactly as the person typed
// it). A refusal for the schema's sake offers Send anyway, which posts
// the same arguments again to be sent with skip-validation.
func (r *runForm) submit(c echo.Context) error {
	server, tool, err := r.tool(c)
	if err != nil {
		return err
	}
	if err := c.Request().ParseForm(); err != nil {
		return &apiError{status: http.StatusBadRequest, code: "bad_request", message: "the form could not be parsed"}
	}
	form := c.Request().PostForm
	anyway := form.Get(views.RunSendAnywayName) == "true"
	specs := views.RunFieldsFromSchema(tool.InputSchema)
	in := views.RunFormInput{Server: server, Tool: tool, Action: RunFormPath(server, tool.Name),
		Mode: form.Get("mode"), Values: runFormValues(specs, form), AsTask: form.Get(views.RunAsTaskName) == "true"}
	var args json.RawMessage
	if in.Mode == views.RunModeRaw {
		in.Raw = form.Get("raw")
		var ok bool
		if args, ok = rawArguments(in.Raw); !ok {
			in.RawError = views.Message{ID: "RunErrRawJSON"}
			return r.refuse(c, in)
		}
	} else {
		var onlyMissing bool
		args, in.FieldErrors, onlyMissing = runArgs(specs, form, !anyway)
		in.Raw = string(domain.IndentJSON(args, ""))
		if len(in.FieldErrors) > 0 {
			// A missing required field is the schema's rule, which the
			// server may not hold to; a value that could not be read is not.
			in.SendAnyway = onlyMissing
			return r.refuse(c, in)
		}
	}
	inv, err := r.invocations.Start(c.Request().Context(), domain.CallRequest{
		Scope: r.scope, Key: domain.CallKey{ConversationID: conversation(c)},
		Server: server, Tool: tool.Name, Arguments: args, SkipValidation: anyway,
		AsTask: in.AsTask, Source: domain.SourceDashboard,
	})
	var se *domain.SchemaError
	switch {
	case errors.As(err, &se):
		in.SendAnyway = true
		if in.Mode == views.RunModeRaw {
			in.RawViolations = rawViolations(se)
		} else {
			in.FieldErrors, in.Summary = violations(specs, se)
		}
		return r.refuse(c, in)
	case errors.Is(err, domain.ErrBadArguments):
		in.Mode, in.RawError = views.RunModeRaw, views.Message{ID: "RunErrRawJSON"}
		return r.refuse(c, in)
	case err != nil:
		return err
	}
	again := views.NewRunFormProps(in)
	again.StartedID = inv.ID
	return r.ui.render(c, http.StatusOK, views.RunStarted(views.RunStartedProps{
		StatusID: views.RunStatusID(server, tool.Name), Tool: tool.Name, InvocationID: inv.ID, Form: again}))
}

// refuse shows the form again with what is wrong.
func (r *runForm) refuse(c echo.Context, in views.RunFormInput) error {
	return r.ui.render(c, http.StatusUnprocessableEntity, views.RunForm(views.NewRunFormProps(in)))
}

// tool finds the server and tool the path names, and whether the tool can
// run now. The rules are the domain's (Invocations.Runnable), the same
// the JSON API's calls meet, so the form refuses what the API refuses,
// with the same error.
func (r *runForm) tool(c echo.Context) (string, domain.Tool, error) {
	server, err := serverName(c)
	if err != nil {
		return "", domain.Tool{}, err
	}
	name := c.Param(toolParam)
	if c.Request().URL.RawPath != "" {
		if name, err = url.PathUnescape(name); err != nil {
			return "", domain.Tool{}, &apiError{status: http.StatusBadRequest, code: "bad_request", message: "the tool name in the path is not validly escaped"}
		}
	}
	tool, err := r.invocations.Runnable(server, name)
	if err != nil {
		return "", domain.Tool{}, err
	}
	return server, tool, nil
}

// conversation returns the browser session's conversation id, setting a
// new random one on first use. HttpOnly and SameSite=Strict: no script
// and no other site ever sees or sends it.
func conversation(c echo.Context) string {
	if ck, err := c.Cookie(conversationCookie); err == nil && validConversation(ck.Value) {
		return ck.Value
	}
	var b [16]byte
	_, _ = rand.Read(b[:])
	id := hex.EncodeToString(b[:])
	c.SetCookie(&http.Cookie{Name: conversationCookie, Value: id, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
	return id
}

// validConversation reports whether v is an id conversation could have
// made; anything else is replaced rather than stored.
func validConversation(v string) bool {
	if len(v) != 32 {
		return false
	}
	_, err := hex.DecodeString(v)
	return err == nil
}

// violations places each schema violation beside the field its pointer
// starts with; the rest go to the summary. Each says the validator's rule
// in the page's language (views.ViolationMessage).
func violations(specs []views.RunFieldSpec, se *domain.SchemaError) (map[string][]views.Message, []views.Message) {
	fields := map[string][]views.Message{}
	var summary []views.Message
	known := map[string]bool{}
	for _, s := range specs {
		known[s.Name] = true
	}
	for _, v := range se.Violations {
		what := views.ViolationMessage(v)
		head, rest := splitPointer(v.Pointer)
		msg := views.Message{ID: "RunViolation", Data: map[string]any{"Message": what}}
		if rest != "" {
			msg = views.Message{ID: "RunViolationAt", Data: map[string]any{"Message": what, "Path": rest}}
		}
		if v.Pointer != "" && known[head] {
			fields[head] = append(fields[head], msg)
			continue
		}
		if v.Pointer != "" {
			msg = views.Message{ID: "RunViolationAt", Data: map[string]any{"Message": what, "Path": v.Pointer}}
		}
		summary = append(summary, msg)
	}
	return fields, summary
}

// rawViolations lists every violation for the Raw JSON tab, where there
// are no fields to put them beside.
func rawViolations(se *domain.SchemaError) []views.Message {
	out := make([]views.Message, 0, len(se.Violations))
	for _, v := range se.Violations {
		what := views.ViolationMessage(v)
		if v.Pointer == "" {
			out = append(out, views.Message{ID: "RunViolation", Data: map[string]any{"Message": what}})
			continue
		}
		out = append(out, views.Message{ID: "RunViolationAt", Data: map[string]any{"Message": what, "Path": v.Pointer}})
	}
	return out
}

// splitPointer returns a JSON pointer's first token, unescaped, and the
// rest of the pointer.
func splitPointer(p string) (string, string) {
	p = strings.TrimPrefix(p, "/")
	head, rest, found := strings.Cut(p, "/")
	head = strings.NewReplacer("~1", "/", "~0", "~").Replace(head)
	if found {
		rest = "/" + rest
	}
	return head, rest
}
