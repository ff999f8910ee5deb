package handlers

import (
	"io"
	"net/http"
	"net/url"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/switchboard-mcp/switchboard/domain"
)

// maxArgumentsBytes bounds a call's request body; arguments are for a
// tool, not a file upload.
const maxArgumentsBytes = 4 << 20

// historyPageMax caps one page of history.
const historyPageMax = 200

// invocationsAPI is the JSON face of the invocation service, for programs
// and AI clients; the dashboard's cards use the fragments in
// invocation_ui.go.
type invocationsAPI struct {
	svc   *domain.Invocations
	scope domain.Scope
}

// call starts a tools/call and answers 202 with the pending invocation at
// once; the outcome arrives on the event stream or by polling. Missing
// arguments whose schema has a default are filled in first (the
// invocation's defaults name them); what still breaks the schema is
// refused with 422 naming each violation, or sent anyway with
// ?validate=false and recorded as the invocation's mismatch. ?task=true
// runs a tool whose taskSupport is optional as a task.
func (a *invocationsAPI) call(c echo.Context) error {
	server, err := serverName(c)
	if err != nil {
		return err
	}
	tool, err := invocationToolName(c)
	if err != nil {
		return err
	}
	body, err := io.ReadAll(io.LimitReader(c.Request().Body, maxArgumentsBytes+1))
	if err != nil {
		return err
	}
	if len(body) > maxArgumentsBytes {
		return &apiError{http.StatusRequestEntityTooLarge, "too_large", "the arguments are larger than 4 MiB"}
	}
	if err := domain.CheckJSONDepth(body, domain.MaxArgumentsDepth); err != nil {
		return err
	}
	if err := notJSON(body, "bad_arguments"); err != nil {
		return err
	}
	q := c.QueryParams()
	validate, err := boolParam(q, "validate", true)
	if err != nil {
		return err
	}
	asTask, err := boolParam(q, "task", false)
	if err != nil {
		return err
	}
	inv, err := a.svc.Start(c.Request().Context(), domain.CallRequest{
		Scope: a.scope, Server: server, Tool: tool, Arguments: body,
		Key:            domain.CallKey{ConversationID: q.Get("conversationId"), MessageID: q.Get("messageId"), ToolCallID: q.Get("toolCallId")},
		SkipValidation: !validate, AsTask: asTask, Source: domain.SourceAPI,
	})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusAccepted, InvocationJSON(inv))
}

// boolParam reads an optional true/false query parameter; anything else
// is refused rather than guessed at.
func boolParam(q url.Values, name string, def bool) (bool, error) {
	v := q.Get(name)
	if v == "" {
		return def, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return def, &apiError{http.StatusBadRequest, "bad_request", name + " must be true or false"}
	}
	return b, nil
}

// list answers one page of the scope's history, newest first.
func (a *invocationsAPI) list(c echo.Context) error {
	f, err := historyFilter(c, 50)
	if err != nil {
		return err
	}
	invs, next, err := listPage(c, a.svc, a.scope, f)
	if err != nil {
		return err
	}
	out := InvocationListDTO{Invocations: make([]InvocationDTO, 0, len(invs)), Next: next}
	for _, inv := range invs {
		out.Invocations = append(out.Invocations, InvocationJSON(inv))
	}
	return c.JSON(http.StatusOK, out)
}

func (a *invocationsAPI) get(c echo.Context) error {
	inv, err := a.svc.Get(c.Request().Context(), a.scope, c.Param(idParam))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, InvocationJSON(inv))
}

// cancel ends a pending or running call and answers with how it ended; a
// finished call is returned as it is.
func (a *invocationsAPI) cancel(c echo.Context) error {
	inv, err := a.svc.Cancel(c.Request().Context(), a.scope, c.Param(idParam))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, InvocationJSON(inv))
}

// retry starts the call again as a new invocation (202, like call).
func (a *invocationsAPI) retry(c echo.Context) error {
	inv, err := a.svc.Retry(c.Request().Context(), a.scope, c.Param(idParam))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusAccepted, InvocationJSON(inv))
}

// invocationToolName is the tool named in the path, unescaped like
// serverName does for the server.
func invocationToolName(c echo.Context) (string, error) {
	name := c.Param(toolParam)
	if c.Request().URL.RawPath == "" {
		return name, nil
	}
	decoded, err := url.PathUnescape(name)
	if err != nil {
		return "", &apiError{http.StatusBadRequest, "bad_request", "the tool name in the path is not validly escaped"}
	}
	return decoded, nil
}

// historyFilter reads server, tool, status, source, client, before and
// limit.
func historyFilter(c echo.Context, defLimit int) (domain.InvocationFilter, error) {
	q := c.QueryParams()
	f := domain.InvocationFilter{ServerName: q.Get("server"), Tool: q.Get("tool"),
		Status: domain.InvocationStatus(q.Get("status")), Before: q.Get("before"), Limit: defLimit,
		Source: q.Get("source"), Client: q.Get("client")}
	if _, ok := statusNames[f.Status]; f.Status != "" && !ok {
		return f, &apiError{http.StatusBadRequest, "bad_request", "status must be pending, awaiting_approval, running, success, error, cancelled or denied"}
	}
	if _, ok := sourceNames[f.Source]; f.Source != "" && !ok {
		return f, &apiError{http.StatusBadRequest, "bad_request", "source must be dashboard, api or gateway"}
	}
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > historyPageMax {
			return f, &apiError{http.StatusBadRequest, "bad_request", "limit must be a number from 1 to 200"}
		}
		f.Limit = n
	}
	return f, nil
}

var statusNames = map[domain.InvocationStatus]struct{}{
	domain.InvocationPending: {}, domain.InvocationAwaitingApproval: {}, domain.InvocationRunning: {},
	domain.InvocationSuccess: {}, domain.InvocationError: {}, domain.InvocationCancelled: {}, domain.InvocationDenied: {},
}

var sourceNames = map[string]struct{}{domain.SourceDashboard: {}, domain.SourceAPI: {}, domain.SourceGateway: {}}

// listPage asks for one more than the limit to learn whether an older
// page exists. It also drops anything up to and including Before itself,
// so a store that ignores Before still pages correctly.
func listPage(c echo.Context, svc *domain.Invocations, scope domain.Scope, f domain.InvocationFilter) ([]domain.Invocation, *string, error) {
	limit := f.Limit
	f.Limit = limit + 1
	invs, err := svc.List(c.Request().Context(), scope, f)
	if err != nil {
		return nil, nil, err
	}
	if f.Before != "" {
		for i, inv := range invs {
			if inv.ID == f.Before {
				invs = invs[i+1:]
				break
			}
		}
	}
	if len(invs) <= limit {
		return invs, nil, nil
	}
	invs = invs[:limit]
	next := invs[limit-1].ID
	return invs, &next, nil
}
