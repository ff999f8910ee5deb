package domain

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Errors the core returns; handlers map each to an HTTP status and a message.
var (
	ErrNotFound       = errors.New("server not found")
	ErrServerDisabled = errors.New("server is disabled")
	ErrClosed         = errors.New("supervisor closed")
	// ErrRemoved is a lookup of a server that left the settings: not found,
	// and the reason why.
	ErrRemoved = fmt.Errorf("removed from the settings: %w", ErrNotFound)
)

// ErrorCategory says why a connection failed, which decides whether the
// supervisor retries on its own.
type ErrorCategory string

const (
	CategoryTimeout  ErrorCategory = "timeout"
	CategoryRefused  ErrorCategory = "refused"
	CategoryDNS      ErrorCategory = "dns"
	CategoryExited   ErrorCategory = "exited"
	CategoryProtocol ErrorCategory = "protocol"
	CategorySession  ErrorCategory = "session"
	CategoryTLS      ErrorCategory = "tls"
	CategoryAuth     ErrorCategory = "auth"
	CategoryConfig   ErrorCategory = "config"
)

// Transient reports whether an error of this category may go away by
// itself, so that retrying with backoff is worth it. TLS, auth, config
// and sign-in errors need a person to change something first.
func (c ErrorCategory) Transient() bool {
	switch c {
	case CategoryTLS, CategoryAuth, CategoryConfig, CategorySignIn:
		return false
	}
	return true
}

// ConnError is a categorized connection failure. Adapters return it so the
// supervisor can decide on retries without knowing any transport.
type ConnError struct {
	Category ErrorCategory
	ExitCode int // for CategoryExited; -1 when the process was killed by a signal
	// Signal names the signal that killed the process, such as "SIGKILL";
	// empty when it exited by itself. A kill is its own explanation, so the
	// stderr tail is then context rather than part of the message.
	Signal     string
	StderrTail []string // last lines the process wrote, for CategoryExited
	Err        error
}

func (e *ConnError) Error() string {
	var b strings.Builder
	switch e.Category {
	case CategoryExited:
		if e.Signal != "" {
			fmt.Fprintf(&b, "killed by %s", e.Signal)
			return b.String()
		}
		if e.ExitCode >= 0 {
			fmt.Fprintf(&b, "exited (code %d)", e.ExitCode)
		} else {
			b.WriteString("exited (killed)")
		}
		if e.Err != nil && !errors.Is(e.Err, ErrProcessExited) {
			fmt.Fprintf(&b, ": %v", e.Err)
		}
		if n := len(e.StderrTail); n > 0 {
			fmt.Fprintf(&b, ": %s", strings.Join(e.StderrTail, " | "))
		}
	default:
		var hte *HandshakeTimeoutError
		if errors.As(e.Err, &hte) {
			// It names the limit and the setting; "timeout:" would repeat it.
			return e.Err.Error()
		}
		b.WriteString(string(e.Category))
		if e.Err != nil {
			fmt.Fprintf(&b, ": %v", e.Err)
		}
	}
	return b.String()
}

func (e *ConnError) Unwrap() error { return e.Err }

// ErrProcessExited is the cause adapters use when a process ended without
// any further explanation than its exit code; its message is left out.
var ErrProcessExited = errors.New("process exited")

// Categorize returns the category of err: the one an adapter attached, a
// timeout for a deadline, and protocol for anything unexplained.
func Categorize(err error) ErrorCategory {
	var ce *ConnError
	if errors.As(err, &ce) {
		return ce.Category
	}
	var hte *HandshakeTimeoutError
	if errors.As(err, &hte) || errors.Is(err, context.DeadlineExceeded) {
		return CategoryTimeout
	}
	return CategoryProtocol
}

// ServerError is a JSON-RPC error a server answered to one request, such as
// -32602 "Resource … not found". It is that request's failure and never the
// connection's: the session that carried it stays up. Message is the
// server's own text, data to show as it was sent; Code is 0 when the
// adapter could not learn it.
type ServerError struct {
	Code    int
	Message string
}

func (e *ServerError) Error() string {
	if e.Code == 0 {
		return "server error: " + e.Message
	}
	return fmt.Sprintf("server error %d: %s", e.Code, e.Message)
}

// Handshake steps a HandshakeTimeoutError may name.
const (
	StepInitialize = "initialize"
	StepLists      = "the capability lists"
)

// HandshakeTimeoutError is a connection attempt cut off by its limit. It
// names the limit and the setting that gives it, so a person knows what to
// raise; views localize it from these fields.
type HandshakeTimeoutError struct {
	Limit   time.Duration
	Setting string // "startTimeoutSeconds" or "connectTimeoutSeconds"; empty when a caller set the limit
	Step    string // what got no answer: StepInitialize or StepLists; empty when unknown
	// Exited reports whether the process had already exited on its own
	// when the limit passed: a crash, which counts toward auto-disable,
	// rather than a slow start.
	Exited bool
}

func (e *HandshakeTimeoutError) Error() string {
	step := e.Step
	if step == "" {
		step = StepInitialize
	}
	msg := fmt.Sprintf("no answer to %s within %s", step, e.Limit)
	if e.Setting != "" {
		msg += " (" + e.Setting + ")"
	}
	return msg
}

// Is makes every handshake timeout a deadline too, for code that only
// asks whether time ran out.
func (e *HandshakeTimeoutError) Is(target error) bool { return target == context.DeadlineExceeded }
