package handlers

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/switchboard-mcp/switchboard/domain"
)

// ErrorDTO is the body of every failed request, so that clients parse one
// shape whatever went wrong.
type ErrorDTO struct {
	Error ErrorDetailDTO `json:"error"`
}

// ErrorDetailDTO says what went wrong: Code is stable for programs,
// Message is for people and never holds a secret.
type ErrorDetailDTO struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	// Violations lists where arguments break the tool's input schema
	// (code invalid_arguments only).
	Violations []ViolationDTO `json:"violations,omitempty"`
}

// ViolationDTO is one broken schema rule: a JSON pointer and what is wrong.
type ViolationDTO struct {
	Pointer string `json:"pointer"`
	Message string `json:"message"`
}

// apiError is a failure a handler or middleware decided on itself, with
// its response already known.
type apiError struct {
	status  int
	code    string
	message string
}

func (e *apiError) Error() string { return e.code + ": " + e.message }

// internalMessage replaces the text of unexpected errors, whose wording may
// carry paths or values nobody vetted for display.
const internalMessage = "internal error: Switchboard could not complete this request"

// classify maps an error to its response: errors that carry their own
// answer by type first, then the domain's sentinels through the error
// table (sentinelResponses). Domain errors arrive redacted, so their text
// may be shown; anything unknown is hidden behind a generic message.
func classify(err error) apiError {
	var ae *apiError
	var se *domain.SettingsError
	var he *echo.HTTPError
	var sch *domain.SchemaError
	var srv *domain.ServerError
	var req *domain.RequestError
	switch {
	case errors.As(err, &ae):
		return *ae
	case errors.As(err, &srv):
		// The server answered this one request with a JSON-RPC error: its
		// message is the server's data, shown as the answer of an upstream.
		return apiError{http.StatusBadGateway, "server_error", err.Error()}
	case errors.As(err, &sch):
		return apiError{http.StatusUnprocessableEntity, "invalid_arguments", err.Error()}
	case errors.As(err, &req):
		// A read or prompt failed between here and the server (the
		// connection broke, the answer was too large); the domain redacted
		// the text and named the server.
		return apiError{http.StatusBadGateway, "connection_failed", err.Error()}
	}
	for _, r := range sentinelResponses {
		if errors.Is(err, r.err) {
			msg := r.message
			if msg == "" {
				msg = err.Error()
			}
			return apiError{r.status, r.code, msg}
		}
	}
	switch {
	case errors.As(err, &se):
		return apiError{http.StatusUnprocessableEntity, "settings_invalid", se.Error()}
	case errors.As(err, &he) && he.Code < http.StatusInternalServerError:
		// Echo's own refusals: no route, wrong method, bad request.
		return apiError{he.Code, statusCode(he.Code), http.StatusText(he.Code)}
	}
	return apiError{http.StatusInternalServerError, "internal", internalMessage}
}

// violationsJSON lists a schema error's violations for the error body,
// or nil when err holds none.
func violationsJSON(err error) []ViolationDTO {
	var e *domain.SchemaError
	if !errors.As(err, &e) {
		return nil
	}
	out := make([]ViolationDTO, 0, len(e.Violations))
	for _, v := range e.Violations {
		out = append(out, ViolationDTO{Pointer: v.Pointer, Message: v.Message})
	}
	return out
}

// statusCode turns an HTTP status into a snake_case code such as
// "method_not_allowed".
func statusCode(status int) string {
	return strings.ReplaceAll(strings.ToLower(http.StatusText(status)), " ", "_")
}

// renderError is the edge of every request that failed: it logs the real
// error once and writes the JSON error shape.
func renderError(log *slog.Logger) echo.HTTPErrorHandler {
	return func(err error, c echo.Context) {
		req := c.Request()
		ctx := req.Context()
		if errors.Is(err, context.Canceled) && ctx.Err() != nil {
			// The client went away; nobody is left to answer.
			log.LogAttrs(ctx, slog.LevelDebug, "request canceled",
				slog.String("method", req.Method), slog.String("path", req.URL.Path))
			return
		}
		p := classify(err)
		logFailure(ctx, log, req, p, err)
		if c.Response().Committed {
			return
		}
		if req.Method == http.MethodHead {
			_ = c.NoContent(p.status)
			return
		}
		// A write error means the client is gone; there is no one to tell.
		_ = c.JSON(p.status, ErrorDTO{Error: ErrorDetailDTO{Code: p.code, Message: p.message, Violations: violationsJSON(err)}})
	}
}

// logFailure logs a failed request once, at the edge: server faults as
// errors, a person's or client's mistakes as information.
func logFailure(ctx context.Context, log *slog.Logger, req *http.Request, p apiError, err error) {
	level := slog.LevelInfo
	switch {
	case p.status >= http.StatusInternalServerError:
		level = slog.LevelError
	case p.status == http.StatusUnauthorized:
		// A tab left open after a restart with a new token retries its
		// event stream for ever; one line each time would bury the log.
		level = slog.LevelDebug
	}
	log.LogAttrs(ctx, level, "request failed",
		slog.String("method", req.Method),
		slog.String("path", req.URL.Path),
		slog.Int("status", p.status),
		slog.String("code", p.code),
		slog.Any("error", err))
}
