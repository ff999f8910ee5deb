package mcpclient_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/url"
	"os"
	"os/exec"
	"syscall"
	"testing"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/mcpclient"
)

func TestClassify(t *testing.T) {
	refused := &url.Error{Op: "Post", URL: "http://127.0.0.1:1/mcp", Err: &net.OpError{Op: "dial", Net: "tcp",
		Err: &os.SyscallError{Syscall: "connect", Err: syscall.ECONNREFUSED}}}
	tests := []struct {
		name string
		err  error
		want domain.ErrorCategory
	}{
		{"nil", nil, ""},
		{"already-categorized", fmt.Errorf("keep-alive: %w", &domain.ConnError{Category: domain.CategoryAuth}), domain.CategoryAuth},

		{"deadline", fmt.Errorf("ping: %w", context.DeadlineExceeded), domain.CategoryTimeout},
		{"read-deadline", &net.OpError{Op: "read", Net: "tcp", Err: os.ErrDeadlineExceeded}, domain.CategoryTimeout},
		{"sse-response-timer", errors.New("timeout waiting for SSE response after 1s"), domain.CategoryTimeout},

		{"connection-refused", fmt.Errorf("failed to send request: %w", refused), domain.CategoryRefused},

		{"no-such-host", &net.DNSError{Err: "no such host", Name: "x.invalid", IsNotFound: true}, domain.CategoryDNS},
		{"dns-timeout", &net.DNSError{Err: "i/o timeout", Name: "x.example", IsTimeout: true}, domain.CategoryDNS},

		{"unknown-authority", &url.Error{Op: "Post", URL: "https://x", Err: &tls.CertificateVerificationError{Err: x509.UnknownAuthorityError{}}}, domain.CategoryTLS},
		{"wrong-host", x509.HostnameError{Certificate: &x509.Certificate{}, Host: "x"}, domain.CategoryTLS},
		{"expired", x509.CertificateInvalidError{Reason: x509.Expired}, domain.CategoryTLS},
		{"plain-http-on-https", tls.RecordHeaderError{Msg: "first record does not look like a TLS handshake"}, domain.CategoryTLS},
		{"handshake-alert", fmt.Errorf("remote error: %w", tls.AlertError(40)), domain.CategoryTLS},

		{"401-from-transport", &transport.AuthorizationRequiredError{}, domain.CategoryAuth},
		{"401-sentinel", fmt.Errorf("listen: %w", transport.ErrUnauthorized), domain.CategoryAuth},
		{"403-as-text", errors.New("request failed with status 403: forbidden"), domain.CategoryAuth},
		{"401-from-sse-stream", errors.New("unexpected status code: 401"), domain.CategoryAuth},

		{"404-session", fmt.Errorf("failed to send request: %w", transport.ErrSessionTerminated), domain.CategorySession},
		{"sse-post-400-session", transport.NewError(errors.New(`request failed with status 400: {"jsonrpc":"2.0","error":{"code":-32602,"message":"Invalid session ID"}}`)), domain.CategorySession},
		{"sse-post-404-session", fmt.Errorf("ping: %w", transport.NewError(errors.New("request failed with status 404: Session not found"))), domain.CategorySession},

		// A JSON-RPC error response is one request's failure, whatever it
		// says; the streamable HTTP 400 "No valid session ID" is judged by
		// the observer, which sees the status and the session header.
		{"jsonrpc-resource-mentions-session", fmt.Errorf("read demo://session/1: %w", fmt.Errorf("%w: Resource demo://session/1 not found", mcp.ErrInvalidParams)), domain.CategoryProtocol},
		{"jsonrpc-resource-not-found-code", fmt.Errorf("%w: session resource not found", mcp.ErrResourceNotFound), domain.CategoryProtocol},
		{"jsonrpc-invalid-session-param", fmt.Errorf("%w: Invalid session ID", mcp.ErrInvalidParams), domain.CategoryProtocol},
		{"jsonrpc-internal-expired", fmt.Errorf("%w: session expired for this cart", mcp.ErrInternalError), domain.CategoryProtocol},
		{"server-error", fmt.Errorf("read x on demo: %w", &domain.ServerError{Code: -32000, Message: "Unknown session token"}), domain.CategoryProtocol},
		{"body-text-without-status", errors.New("Bad Request: No valid session ID provided"), domain.CategoryProtocol},
		{"jsonrpc-quoting-a-status", fmt.Errorf("%w: request failed with status 404: session not found", mcp.ErrInvalidParams), domain.CategoryProtocol},
		{"jsonrpc-401-text", fmt.Errorf("%w: upstream said status 401", mcp.ErrInternalError), domain.CategoryProtocol},

		{"not-on-path", &exec.Error{Name: "srv", Err: exec.ErrNotFound}, domain.CategoryConfig},
		{"no-such-file", &fs.PathError{Op: "fork/exec", Path: "/x", Err: syscall.ENOENT}, domain.CategoryConfig},
		{"not-executable", &fs.PathError{Op: "fork/exec", Path: "/x", Err: syscall.EACCES}, domain.CategoryConfig},
		{"not-a-binary", &fs.PathError{Op: "fork/exec", Path: "/x", Err: syscall.ENOEXEC}, domain.CategoryConfig},
		{"4xx-on-initialize", fmt.Errorf("initialize: %w", transport.ErrLegacySSEServer), domain.CategoryConfig},
		{"unparsable-url", &url.Error{Op: "parse", URL: "http://[::1", Err: errors.New("missing ']' in host")}, domain.CategoryConfig},
		{"bad-scheme", &url.Error{Op: "Post", URL: "ftp://x", Err: errors.New(`unsupported protocol scheme "ftp"`)}, domain.CategoryConfig},

		{"exit", &exec.ExitError{}, domain.CategoryExited},

		{"stdio-closed", transport.ErrTransportClosed, domain.CategoryProtocol},
		{"method-not-found", mcp.ErrMethodNotFound, domain.CategoryProtocol},
		{"stream-ended", io.EOF, domain.CategoryProtocol},
		{"reset", &net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}, domain.CategoryProtocol},
		{"500", errors.New("request failed with status 500: oops"), domain.CategoryProtocol},
		{"message-too-large", fmt.Errorf("request failed with status 401: invalid session: %w", mcpclient.ErrMessageTooLarge), domain.CategoryProtocol},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := mcpclient.Classify(tt.err); got != tt.want {
				t.Errorf("Classify(%v) = %q, want %q", tt.err, got, tt.want)
			}
		})
	}
}
