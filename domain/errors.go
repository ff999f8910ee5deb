package domain

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// The core's sentinel errors, all declared here so that one look shows
// every failure a caller may test with errors.Is. Handlers map each to an
// HTTP status, a stable code and a message (handlers/errors.go), and a test
// there checks that none is missing. Their text is shown to people, so it
// says what happened in plain words and never holds a secret.
var (
	// ErrNotFound is a server name the fleet does not know. Every other
	// "not found" (invocation, tool, prompt, elicitation, a removed server)
	// matches it too, so a caller that only asks "was it there?" needs one
	// test.
	ErrNotFound = errors.New("server not found")
	// ErrRemoved is a lookup of a server that left the settings: not found,
	// and the reason why.
	ErrRemoved = fmt.Errorf("removed from the settings: %w", ErrNotFound)
	// ErrInvocationNotFound is an invocation id the store does not hold.
	ErrInvocationNotFound error = &notFoundError{what: "invocation"}
	// ErrToolNotFound is a tool name the server does not list.
	ErrToolNotFound error = &notFoundError{what: "tool"}
	// ErrPromptNotFound is a prompt name the server does not list.
	ErrPromptNotFound = fmt.Errorf("prompt not found: %w", ErrNotFound)
	// ErrElicitationNotFound is a server question that is not waiting: never
	// asked, already answered, or timed out.
	ErrElicitationNotFound = fmt.Errorf("elicitation not found: %w", ErrNotFound)
	// ErrGatewaySessionNotFound is a lookup of a gateway session the store
	// does not hold: never opened, or pruned.
	ErrGatewaySessionNotFound = errors.New("gateway session not found")
	// ErrClientTokenNotFound is a client token name nobody created, or one
	// already revoked.
	ErrClientTokenNotFound = errors.New("no client token has this name")

	// ErrServerDisabled is a command to a server a person turned off.
	ErrServerDisabled = errors.New("server is disabled")
	// ErrBlocked is returned for commands on a blocked server; a
	// *BlockedError matches it and says why.
	ErrBlocked = errors.New("server is blocked")
	// ErrNotConnected is a call to a server with no live session.
	ErrNotConnected = errors.New("server is not connected")
	// ErrClosed is a request that arrived after the supervisor began to
	// shut down.
	ErrClosed = errors.New("supervisor closed")
	// ErrProcessExited is the cause adapters use when a process ended
	// without any further explanation than its exit code; its message is
	// left out.
	ErrProcessExited = errors.New("process exited")
	// ErrInvalidSettings marks an override a server cannot take.
	ErrInvalidSettings = errors.New("invalid settings")

	// ErrBadArguments is a tool call whose arguments are not a JSON object.
	ErrBadArguments = errors.New("arguments must be a JSON object")
	// ErrDuplicateCall is a second invocation with the same CallKey in a
	// scope: a client replaying a tool call it already made.
	ErrDuplicateCall = errors.New("an invocation with this messageId and toolCallId already exists")
	// ErrInvalidRequest is a request the caller built wrongly, such as a
	// completion without an argument name; the server is never asked.
	ErrInvalidRequest = errors.New("invalid request")
	// ErrNoAnswer is a request the server left unanswered for the whole of
	// its call timeout.
	ErrNoAnswer = errors.New("no answer")
	// ErrNoTasks is a session that cannot run calls as tasks.
	ErrNoTasks = errors.New("this connection cannot run tool calls as tasks")
	// ErrTaskCancelled is a task the server cancelled although nobody here
	// asked it to.
	ErrTaskCancelled = errors.New("the server cancelled the task")
	// ErrTaskFailed is a task the server reports as failed.
	ErrTaskFailed = errors.New("the task failed")
	// ErrCannotSubscribe is a server whose session cannot subscribe to
	// resources.
	ErrCannotSubscribe = errors.New("the server's connection cannot subscribe to resources")
	// ErrNotAsked is wrapped by an Asker that could not put a request to
	// anyone; the error's text says why, for the server and the card.
	ErrNotAsked = errors.New("nobody could be asked")

	// ErrDeniedByPolicy is a call to a tool whose policy is deny.
	ErrDeniedByPolicy = errors.New("denied by policy")
	// ErrInvalidPolicy is a policy value that is not allow, ask, deny or
	// hidden.
	ErrInvalidPolicy = errors.New("policy must be allow, ask, deny or hidden")
	// ErrNotAwaitingApproval is an approve or deny of a call that is not
	// held for approval (any more).
	ErrNotAwaitingApproval = errors.New("the invocation is not awaiting approval")

	// ErrNothingToApprove is a decision about a server that awaits none.
	ErrNothingToApprove = errors.New("server awaits no approval")
	// ErrFingerprintRequired is a decision that does not say which config
	// it was shown: deciding blind is refused.
	ErrFingerprintRequired = errors.New("the fingerprint of the config shown is required")
	// ErrConfigChanged is what a *ConfigChangedError matches: the config
	// changed between being shown and being decided on.
	ErrConfigChanged = errors.New("the config changed since it was shown")

	// ErrBadElicitationAnswer is an answer whose action is not accept,
	// decline or cancel, or whose content is not a JSON object.
	ErrBadElicitationAnswer = errors.New("the answer must have action accept, decline or cancel, and content must be a JSON object")
	// ErrTooManyElicitations refuses a question from a server that already
	// has maxPendingPerServer waiting: a server may send as many as it
	// likes, and each would hold memory and a place in the drawer until it
	// timed out.
	ErrTooManyElicitations = errors.New("too many of this server's questions are waiting for the person already")

	// ErrNoSignIn is a sign-in asked of a server that does not use OAuth.
	ErrNoSignIn = errors.New("this server does not use sign-in")
	// ErrSignInUnknown is a callback whose state Switchboard never issued,
	// already used, or expired (10 minutes).
	ErrSignInUnknown = errors.New("this sign-in was not started by Switchboard, was already used, or has expired")
	// ErrSignInOtherServer is an address pasted for one server that
	// finishes the sign-in of another.
	ErrSignInOtherServer = errors.New("this address finishes the sign-in of another server; paste it where that sign-in was started")
	// ErrNeedsClientID is a sign-in that cannot register Switchboard with
	// the authorization server: a person must give a client ID.
	ErrNeedsClientID = errors.New("the authorization server needs a client ID registered by hand")

	// ErrClientTokenExists is a new client token whose name is taken.
	ErrClientTokenExists = errors.New("a client token with this name already exists")
	// ErrClientTokenName is a client token name outside the allowed form.
	ErrClientTokenName = errors.New(`a client token's name is 1 to 64 letters, digits, dots, dashes or underscores, starting with a letter or digit, and not "owner"`)

	// ErrNoClientConfig marks a client that keeps no config file on this
	// OS (Claude Desktop on Linux), or whose path needs a variable that is
	// unset.
	ErrNoClientConfig = errors.New("no config file for this client here")
	// ErrNoSettingsFile marks an import when Switchboard runs without a
	// settings file (the demo), so there is nowhere to import to.
	ErrNoSettingsFile = errors.New("Switchboard has no settings file to import into")
	// ErrNothingToUndo marks an undo with no backup left to restore.
	ErrNothingToUndo = errors.New("no backup to restore")
)

// notFoundError is a lookup of something other than a server that found
// nothing. Its text names only what was missing, where wrapping
// ErrNotFound would append "server not found"; errors.Is still takes it
// for ErrNotFound, so every caller that answers ErrNotFound keeps doing so.
type notFoundError struct{ what string }

func (e *notFoundError) Error() string        { return e.what + " not found" }
func (e *notFoundError) Is(target error) bool { return target == ErrNotFound }

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
