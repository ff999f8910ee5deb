package mcpclient

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"

	"github.com/mark3labs/mcp-go/client/transport"

	"github.com/switchboard-mcp/switchboard/domain"
)

// errBadConfig marks a server entry that cannot work as written, such as an
// empty command or a URL without a host.
var errBadConfig = errors.New("invalid server configuration")

// statusInMessage finds an HTTP status in the messages mcp-go builds with
// fmt.Errorf ("request failed with status 403: ...", "unexpected status
// code: 403"), which carry the code only as text.
var statusInMessage = regexp.MustCompile(`status(?: code)?:? (\d{3})\b`)

// Classify maps an error from mcp-go, net/http or os/exec to the category
// the supervisor uses to decide whether retrying can help. A
// *domain.ConnError keeps the category it already has; anything not
// recognized is a protocol error, which is retried.
func Classify(err error) domain.ErrorCategory {
	if err == nil {
		return ""
	}
	var ce *domain.ConnError
	if errors.As(err, &ce) {
		return ce.Category
	}
	switch {
	case errors.Is(err, ErrMessageTooLarge):
		// Checked first: the text mcp-go wraps around it may mention a
		// session or a status.
		return domain.CategoryProtocol
	case isRPCResponse(err):
		// The server answered this one request with an error; only
		// transport facts say anything about the connection.
		return domain.CategoryProtocol
	case isAuth(err):
		return domain.CategoryAuth
	case isSessionGone(err):
		return domain.CategorySession
	case isConfig(err):
		return domain.CategoryConfig
	case isTLS(err):
		return domain.CategoryTLS
	case isDNS(err):
		return domain.CategoryDNS
	case errors.Is(err, syscall.ECONNREFUSED):
		return domain.CategoryRefused
	case isTimeout(err):
		return domain.CategoryTimeout
	case isExit(err):
		return domain.CategoryExited
	}
	return domain.CategoryProtocol
}

// connError returns err as a *domain.ConnError, categorizing it unless it
// already is one.
func connError(err error) *domain.ConnError {
	var ce *domain.ConnError
	if errors.As(err, &ce) {
		return ce
	}
	return &domain.ConnError{Category: Classify(err), Err: err}
}

// endsSession reports whether a failed request of category c means the
// connection is gone, rather than that one request went wrong.
func endsSession(c domain.ErrorCategory) bool {
	switch c {
	case domain.CategorySession, domain.CategoryRefused, domain.CategoryDNS,
		domain.CategoryTLS, domain.CategoryAuth, domain.CategorySignIn, domain.CategoryExited:
		return true
	}
	return false
}

func isAuth(err error) bool {
	if errors.Is(err, transport.ErrAuthorizationRequired) ||
		errors.Is(err, transport.ErrOAuthAuthorizationRequired) ||
		errors.Is(err, transport.ErrUnauthorized) {
		return true
	}
	code := statusFromMessage(err)
	return code == 401 || code == 403
}

// isSessionGone recognizes a server that no longer knows the session from
// transport facts only: mcp-go reports a streamable HTTP 404 as
// ErrSessionTerminated, and a legacy SSE post refused with 400 or 404
// ("Invalid session ID", "Session not found") as text with the status.
// A JSON-RPC error response never counts, whatever its message says; the
// 400 "No valid session ID" that TypeScript servers answer on streamable
// HTTP is a JSON-RPC body too, so the observer judges it by its HTTP
// status and the session ID the request carried.
func isSessionGone(err error) bool {
	if errors.Is(err, transport.ErrSessionTerminated) {
		return true
	}
	switch statusFromMessage(err) {
	case http.StatusBadRequest, http.StatusNotFound:
		return mentionsLostSession(err.Error())
	}
	return false
}

func mentionsLostSession(msg string) bool {
	msg = strings.ToLower(msg)
	if !strings.Contains(msg, "session") {
		return false
	}
	for _, s := range []string{"not found", "no valid", "invalid", "unknown", "terminated", "expired"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

func isConfig(err error) bool {
	if errors.Is(err, errBadConfig) ||
		errors.Is(err, exec.ErrNotFound) ||
		errors.Is(err, fs.ErrNotExist) ||
		errors.Is(err, fs.ErrPermission) ||
		errors.Is(err, syscall.ENOEXEC) ||
		errors.Is(err, transport.ErrLegacySSEServer) {
		return true
	}
	var ue *url.Error
	if errors.As(err, &ue) && (ue.Op == "parse" || strings.Contains(ue.Err.Error(), "unsupported protocol scheme")) {
		return true
	}
	return false
}

func isTLS(err error) bool {
	var (
		verify    *tls.CertificateVerificationError
		record    tls.RecordHeaderError
		alert     tls.AlertError
		authority x509.UnknownAuthorityError
		invalid   x509.CertificateInvalidError
		host      x509.HostnameError
		roots     x509.SystemRootsError
	)
	return errors.As(err, &verify) || errors.As(err, &record) || errors.As(err, &alert) ||
		errors.As(err, &authority) || errors.As(err, &invalid) || errors.As(err, &host) ||
		errors.As(err, &roots)
}

func isDNS(err error) bool {
	var dns *net.DNSError
	return errors.As(err, &dns)
}

func isTimeout(err error) bool {
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, os.ErrDeadlineExceeded) {
		return true
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return true
	}
	// The SSE transport reports its own response and endpoint timers as
	// plain strings.
	return strings.Contains(err.Error(), "timeout waiting for")
}

func isExit(err error) bool {
	var exit *exec.ExitError
	return errors.As(err, &exit)
}

func statusFromMessage(err error) int {
	m := statusInMessage.FindStringSubmatch(err.Error())
	if m == nil {
		return 0
	}
	code, _ := strconv.Atoi(m[1])
	return code
}
