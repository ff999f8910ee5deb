package handlers

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/switchboard-mcp/switchboard/domain"
)

// elicitationsAPI lists the questions servers are waiting on a person to
// answer and takes the answers, for programs that stand in for the person.
type elicitationsAPI struct {
	svc       *domain.Elicitations
	scope     domain.Scope
	validator domain.SchemaValidator // nil gives no warnings
}

// ElicitationDTO is one waiting question. RequestedSchema is the server's,
// exactly as sent; URL-mode questions carry mode "url" and url instead.
type ElicitationDTO struct {
	ID              string          `json:"id"`
	ServerName      string          `json:"serverName"`
	InvocationID    *string         `json:"invocationId"` // null for a question of no call
	Mode            string          `json:"mode"`
	Message         string          `json:"message"`
	RequestedSchema json.RawMessage `json:"requestedSchema,omitempty"`
	URL             string          `json:"url,omitempty"`
	ElicitationID   string          `json:"elicitationId,omitempty"`
	CreatedAt       int64           `json:"createdAt"` // ms since the epoch
}

// ElicitationsDTO is the list GET answers, oldest first.
type ElicitationsDTO struct {
	Elicitations []ElicitationDTO `json:"elicitations"`
}

// ElicitationAnswerDTO is the body of an answer. Content is accept's
// form values: a property it omits takes the schema's default.
type ElicitationAnswerDTO struct {
	Action  string          `json:"action"`
	Content json.RawMessage `json:"content,omitempty"`
}

// ElicitationAnsweredDTO answers an accepted answer: the content sent
// (defaults filled in) and where it breaks the requested schema. The
// content is sent anyway: the server judges it.
type ElicitationAnsweredDTO struct {
	Action   string          `json:"action"`
	Content  json.RawMessage `json:"content,omitempty"`
	Warnings []ViolationDTO  `json:"warnings"`
}

func elicitationJSON(e domain.Elicitation) ElicitationDTO {
	d := ElicitationDTO{ID: e.ID, ServerName: e.Server, Mode: e.Mode, Message: e.Message, URL: e.URL,
		ElicitationID: e.ElicitationID, CreatedAt: e.CreatedAt.UnixMilli()}
	if e.InvocationID != "" {
		id := e.InvocationID
		d.InvocationID = &id
	}
	if e.Mode == domain.ElicitForm {
		d.RequestedSchema = e.RequestedSchema
	}
	return d
}

// list answers every question waiting in the scope, and those of no call.
func (a *elicitationsAPI) list(c echo.Context) error {
	out := ElicitationsDTO{Elicitations: []ElicitationDTO{}}
	for _, e := range a.svc.List(a.scope) {
		out.Elicitations = append(out.Elicitations, elicitationJSON(e))
	}
	return c.JSON(http.StatusOK, out)
}

// answer hands the answer to the waiting server: 200 with what was sent
// and any warnings, 404 when the question is gone (answered, or its call
// ended).
func (a *elicitationsAPI) answer(c echo.Context) error {
	shape := &apiError{http.StatusBadRequest, "bad_request",
		`the body must be {"action": "accept"|"decline"|"cancel", "content": {…}}, content a JSON object`}
	var body ElicitationAnswerDTO
	if _, err := readSmallJSON(c, &body, 1<<20, shape); err != nil {
		return err
	}
	id := c.Param(idParam)
	e, err := a.svc.Get(a.scope, id)
	if err != nil {
		return err
	}
	out := ElicitationAnsweredDTO{Action: body.Action, Warnings: []ViolationDTO{}}
	if body.Action == domain.ElicitAccept && e.Mode == domain.ElicitForm {
		content, err := domain.WithSchemaDefaults(e.RequestedSchema, body.Content)
		if err != nil {
			return shape
		}
		out.Content, body.Content = content, content
		out.Warnings = elicitationWarnings(a.validator, e.RequestedSchema, content)
	}
	err = a.svc.Answer(a.scope, id, domain.ElicitationAnswer{Action: body.Action, Content: body.Content})
	if errors.Is(err, domain.ErrBadElicitationAnswer) {
		return shape
	}
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}

// elicitationWarnings lists where content breaks schema, for the API.
func elicitationWarnings(v domain.SchemaValidator, schema, content json.RawMessage) []ViolationDTO {
	out := []ViolationDTO{}
	for _, vi := range elicitationViolations(v, schema, content) {
		out = append(out, ViolationDTO{Pointer: vi.Pointer, Message: vi.Message})
	}
	return out
}

// elicitationViolations lists where content breaks schema; none without a
// validator, or for a schema the validator cannot read.
func elicitationViolations(v domain.SchemaValidator, schema, content json.RawMessage) []domain.Violation {
	if v == nil {
		return nil
	}
	var se *domain.SchemaError
	if err := v.Validate(schema, content); errors.As(err, &se) {
		return se.Violations
	}
	return nil
}
