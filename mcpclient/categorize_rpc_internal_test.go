package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
)

// serverError reads errors exactly as mcp-go's client returns them: made
// by JSONRPCErrorDetails.AsError for a response, or wrapped in
// *transport.Error for anything the transport failed with.
func TestServerError(t *testing.T) {
	asError := func(code int, msg string) error {
		d := mcp.JSONRPCErrorDetails{Code: code, Message: msg}
		return d.AsError()
	}
	tests := []struct {
		name string
		err  error
		want *domain.ServerError
	}{
		{"invalid-params", asError(mcp.INVALID_PARAMS, "Resource demo://session/1 not found"),
			&domain.ServerError{Code: mcp.INVALID_PARAMS, Message: "Resource demo://session/1 not found"}},
		{"resource-not-found", asError(mcp.RESOURCE_NOT_FOUND, "no such note"),
			&domain.ServerError{Code: mcp.RESOURCE_NOT_FOUND, Message: "no such note"}},
		{"method-not-found-no-message", asError(mcp.METHOD_NOT_FOUND, ""),
			&domain.ServerError{Code: mcp.METHOD_NOT_FOUND, Message: "method not found"}},
		{"internal", asError(mcp.INTERNAL_ERROR, "boom: it broke"),
			&domain.ServerError{Code: mcp.INTERNAL_ERROR, Message: "boom: it broke"}},
		{"header-mismatch", asError(mcp.HEADER_MISMATCH, "Mcp-Method differs"),
			&domain.ServerError{Code: mcp.HEADER_MISMATCH, Message: mcp.HeaderMismatchError{Reason: "Mcp-Method differs"}.Error()}},
		{"unknown-code-keeps-message", asError(-32000, "Bad Request: No valid session ID provided"),
			&domain.ServerError{Message: "Bad Request: No valid session ID provided"}},
		{"already-one", fmt.Errorf("x: %w", &domain.ServerError{Code: 1, Message: "m"}), &domain.ServerError{Code: 1, Message: "m"}},

		{"nil", nil, nil},
		{"transport", transport.NewError(errors.New("request failed with status 404: Session not found")), nil},
		{"transport-sentinel", transport.NewError(transport.ErrSessionTerminated), nil},
		{"canceled", context.Canceled, nil},
		{"deadline", fmt.Errorf("wait: %w", context.DeadlineExceeded), nil},
		{"too-large", fmt.Errorf("read: %w", ErrMessageTooLarge), nil},
		{"wrapped-local", fmt.Errorf("failed to unmarshal response: %w", errors.New("bad json")), nil},
		{"joined", errors.Join(errors.New("a"), errors.New("b")), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := serverError(tt.err); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("serverError(%v) = %+v, want %+v", tt.err, got, tt.want)
			}
		})
	}
}
