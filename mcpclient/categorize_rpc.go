package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
)

// rpcSentinels pairs the errors mcp-go's client makes of the JSON-RPC
// error codes it knows with those codes; it wraps the server's message
// around them.
var rpcSentinels = []struct {
	err  error
	code int
}{
	{mcp.ErrParseError, mcp.PARSE_ERROR},
	{mcp.ErrInvalidRequest, mcp.INVALID_REQUEST},
	{mcp.ErrMethodNotFound, mcp.METHOD_NOT_FOUND},
	{mcp.ErrInvalidParams, mcp.INVALID_PARAMS},
	{mcp.ErrInternalError, mcp.INTERNAL_ERROR},
	{mcp.ErrRequestInterrupted, mcp.REQUEST_INTERRUPTED},
	{mcp.ErrResourceNotFound, mcp.RESOURCE_NOT_FOUND},
}

// isRPCResponse reports whether err carries a JSON-RPC error response that
// the server sent for one request, recognized by type anywhere in the chain:
// such an error says nothing about the connection, whatever its text says.
// Transport failures, which mcp-go wraps in *transport.Error, are not.
func isRPCResponse(err error) bool {
	var se *domain.ServerError
	if errors.As(err, &se) {
		return true
	}
	var te *transport.Error
	if err == nil || errors.As(err, &te) {
		return false
	}
	_, ok := rpcCode(err)
	return ok
}

// rpcCode returns the JSON-RPC code behind an error mcp-go made of an
// error response with a code it knows.
func rpcCode(err error) (int, bool) {
	for _, s := range rpcSentinels {
		if errors.Is(err, s.err) {
			return s.code, true
		}
	}
	var (
		header     mcp.HeaderMismatchError
		capability mcp.MissingRequiredClientCapabilityError
		version    mcp.UnsupportedProtocolVersionError
		elicit     mcp.URLElicitationRequiredError
	)
	switch {
	case errors.As(err, &header):
		return mcp.HEADER_MISMATCH, true
	case errors.As(err, &capability):
		return mcp.MISSING_REQUIRED_CLIENT_CAPABILITY, true
	case errors.As(err, &version):
		return mcp.UNSUPPORTED_PROTOCOL_VERSION, true
	case errors.As(err, &elicit):
		return mcp.URL_ELICITATION_REQUIRED, true
	}
	return 0, false
}

// serverError returns the JSON-RPC error response that err, as mcp-go's
// client returned it for one request, reports, or nil when err is a
// transport failure or one of Switchboard's own. mcp-go turns an error
// response into a sentinel wrapped with the server's message for the codes
// it knows, a typed error for the protocol-negotiation codes, and a plain
// error holding only the message for any other code (whose number it does
// not keep, so Code is 0); everything the transport fails with arrives as a
// *transport.Error. err must not be wrapped further, since the plain case
// is recognized by having nothing inside it.
func serverError(err error) *domain.ServerError {
	var te *transport.Error
	if err == nil || errors.As(err, &te) || errors.Is(err, context.Canceled) ||
		errors.Is(err, context.DeadlineExceeded) || errors.Is(err, ErrMessageTooLarge) {
		return nil
	}
	var se *domain.ServerError
	if errors.As(err, &se) {
		return se
	}
	if code, ok := rpcCode(err); ok {
		return &domain.ServerError{Code: code, Message: serverText(err)}
	}
	if errors.Unwrap(err) == nil && !wrapsMany(err) {
		return &domain.ServerError{Message: err.Error()}
	}
	return nil
}

// serverText is the server's own message inside an error mcp-go built as
// "<sentinel>: <message>"; the whole text when the server's message was
// empty, the same as the sentinel's, or carried by a typed error.
func serverText(err error) string {
	msg := err.Error()
	for _, s := range rpcSentinels {
		if rest, ok := strings.CutPrefix(msg, s.err.Error()+": "); ok && errors.Is(err, s.err) {
			return rest
		}
	}
	return msg
}

// wrapsMany reports whether err joins several errors, which mcp-go never
// makes of an error response.
func wrapsMany(err error) bool {
	_, ok := err.(interface{ Unwrap() []error })
	return ok
}

// requestFailed reports a failed request. The server's JSON-RPC error for
// it comes back as a *domain.ServerError, unwrapped because the domain
// names the request and the server, and leaves the session up; when the
// transport says more (the caller's context ended, the server forgot the
// session, auth was refused, the connection is gone) or err is no error
// response at all, requestError decides, as for any other failure. A 403
// insufficient_scope from a server Options.Auth signs in to is a
// *domain.NeedsMoreAccessError.
func (s *session) requestFailed(ctx context.Context, ex *exchange, op string, err error) error {
	if nma, ok := ex.needsMoreAccess(); ok && ctx.Err() == nil {
		// The grant is too narrow for this request only: the session
		// stays, and a person may sign in with more access and retry.
		return fmt.Errorf("%s: %w", op, nma)
	}
	if se := serverError(err); se != nil && ctx.Err() == nil && ex.category(false) == "" {
		select {
		case <-s.done:
		default:
			return se
		}
	}
	return s.requestError(ctx, ex, fmt.Errorf("%s: %w", op, err))
}
