package domain

import (
	"context"
	"encoding/json"
	"strings"
	"time"
)

// InvocationStatus is where one tools/call stands.
type InvocationStatus string

const (
	InvocationPending   InvocationStatus = "pending"   // accepted, not sent yet
	InvocationRunning   InvocationStatus = "running"   // sent, no answer yet
	InvocationSuccess   InvocationStatus = "success"   // answered, not isError
	InvocationError     InvocationStatus = "error"     // isError, a failed call or a timeout
	InvocationCancelled InvocationStatus = "cancelled" // a person cancelled it
	// InvocationAwaitingApproval is an AI client's call to a tool whose
	// policy is ask, held unsent until a person approves or denies it.
	InvocationAwaitingApproval InvocationStatus = "awaiting_approval"
	// InvocationDenied is a held call a person denied; it was never sent.
	InvocationDenied InvocationStatus = "denied"
)

// Final reports whether no further transition can happen.
func (s InvocationStatus) Final() bool {
	return s == InvocationSuccess || s == InvocationError || s == InvocationCancelled || s == InvocationDenied
}

// invocationTransitions is the card's state machine: a call is always
// seen running before it ends, so a card never jumps from pending to done.
// A held call is either sent (running), refused by a person (denied) or
// given up (cancelled: by a person, the client, or its approval expiring).
var invocationTransitions = map[InvocationStatus][]InvocationStatus{
	InvocationPending:          {InvocationAwaitingApproval, InvocationRunning, InvocationCancelled, InvocationError},
	InvocationAwaitingApproval: {InvocationRunning, InvocationDenied, InvocationCancelled},
	InvocationRunning:          {InvocationSuccess, InvocationError, InvocationCancelled},
}

// CanBecome reports whether the machine allows s -> next.
func (s InvocationStatus) CanBecome(next InvocationStatus) bool {
	for _, n := range invocationTransitions[s] {
		if n == next {
			return true
		}
	}
	return false
}

// CallKey names an invocation within its scope the way an AI client does:
// the conversation, the assistant message and the tool call in it. Calls
// made from the dashboard use one conversation per browser session.
type CallKey struct {
	ConversationID string
	MessageID      string
	ToolCallID     string
}

// Progress is the last notifications/progress a server sent for a call.
type Progress struct {
	Progress float64
	Total    float64 // 0 when the server did not say
	Message  string
}

// Invocation is one tools/call, as stored and shown.
type Invocation struct {
	ID         string
	Scope      Scope
	Key        CallKey
	ServerName string
	Tool       string
	Arguments  json.RawMessage // the arguments object as sent
	// Defaults are the JSON pointers of the properties Switchboard filled
	// from the tool schema's defaults before sending, so the card can say
	// which values nobody typed.
	Defaults []string
	// Mismatch lists the schema violations the arguments were sent with
	// anyway (a person chose Send anyway, the API asked validate=false, or
	// an AI client's call was forwarded as it came), so the card can warn.
	Mismatch []Violation
	// Task is set when the call runs as a task; the card shows its status.
	Task *TaskState
	// Source is where the call came from (SourceDashboard, SourceAPI,
	// SourceGateway) and Client, for gateway calls, which AI client made it.
	Source string
	Client ClientIdentity
	// Asks are the requests the server made while the call ran
	// (elicitation, sampling, roots) and how each ended.
	Asks     []AskRecord
	Status   InvocationStatus
	Progress *Progress
	// Result is the MCP CallToolResult as JSON. When it was larger than the
	// store's cap it is cut short and Truncated is set; ResultSize keeps
	// the size the server sent.
	Result     json.RawMessage
	Truncated  bool
	ResultSize int64
	// ResultPreviewed is set on a finished call the feed carries with only
	// what a card shows of its result (Preview); the whole is in the store.
	ResultPreviewed bool
	// OutputViolations are how the result's structuredContent broke the
	// tool's outputSchema, found once when the result arrived: at most
	// MaxOutputViolations, and one more when there were more.
	OutputViolations []Violation
	Error            string // redacted; for failed calls that have no result
	// ErrorCode names, for an error Switchboard itself caused, what went
	// wrong in a form views can translate (ErrorCodeInterrupted); empty
	// for the tool's or server's own errors, which only have Error.
	ErrorCode string
	RetryOf   string // the invocation this one repeats, if any
	StartedAt time.Time
	EndedAt   time.Time
	Version   uint64 // grows with every change, across all invocations

	// NeededScopes are the scopes the server asked for when it refused the
	// call as needing more access (ErrorCodeNeedsMoreAccess), so the card
	// can offer a sign-in that asks for them.
	NeededScopes []string
}

// ToolCaller makes a call through a server's supervised connection. The
// Fleet implements it.
type ToolCaller interface {
	// CallTool sends tools/call with a progress token and reports each
	// progress notification. The result is the CallToolResult as JSON.
	CallTool(ctx context.Context, server, tool string, args json.RawMessage, progress func(Progress)) (json.RawMessage, error)
	// CallTimeout is the server's per-call deadline.
	CallTimeout(server string) (time.Duration, error)
	// TaskCaller runs calls of tools whose taskSupport asks for it as
	// tasks.
	TaskCaller
}

// InvocationFilter narrows a history listing; empty fields match all.
type InvocationFilter struct {
	ServerName string
	Tool       string
	Status     InvocationStatus
	Source     string // SourceDashboard, SourceAPI or SourceGateway
	Client     string // the AI client's name, as it introduced itself
	Before     string // an invocation id: list what started before it (pagination)
	// StartedFrom and StartedBefore keep calls that started in
	// [StartedFrom, StartedBefore), for a chart's minute; zero is open.
	StartedFrom   time.Time
	StartedBefore time.Time
	Limit         int
	// Preview lists a result larger than a card shows as what a card
	// shows of it (Invocation.Preview), for pages, which list up to a
	// hundred calls whose results may each be megabytes.
	Preview bool
}

// InvocationStore persists invocations per scope. A lookup in another
// scope finds nothing, so one tenant cannot learn of another's calls.
//
// Writes come in three strengths, so that a call pays for the disk only
// where a crash must not lose anything: SaveInvocation and
// FinishInvocation return once committed; QueueInvocation, for the states
// a crash may lose (a call stored as unfinished, or not at all, is never
// reported to anyone as done), does not wait. Every read sees every write
// handed in before it, waited for or not.
type InvocationStore interface {
	// SaveInvocation stores inv, unless a newer version of it is stored,
	// and returns once it is committed.
	SaveInvocation(ctx context.Context, inv Invocation) error
	// QueueInvocation stores inv as SaveInvocation does but returns at
	// once; failed, when not nil, is told if the write failed.
	QueueInvocation(inv Invocation, failed func(error))
	// FinishInvocation stores a call's final state and appends its row to
	// the append-only audit log, both or neither, and returns once both
	// are committed.
	FinishInvocation(ctx context.Context, inv Invocation, rec AuditRecord) error
	Invocation(ctx context.Context, scope Scope, id string) (Invocation, error) // ErrInvocationNotFound
	Invocations(ctx context.Context, scope Scope, f InvocationFilter) ([]Invocation, error)
	// PruneBefore deletes invocations and audit rows that ended before t.
	PruneBefore(ctx context.Context, t time.Time) (int64, error)
	// InterruptOrphans ends the unfinished invocations in sel that no live
	// Switchboard process runs, each as an error with ErrorCodeInterrupted
	// and its audit row, and returns them as stored.
	InterruptOrphans(ctx context.Context, sel Interruption) ([]Invocation, error)
}

// AuditRecord is the append-only trace of one finished invocation. It keeps
// a hash of the arguments, not the arguments, so the log itself holds no
// secrets a tool was given.
type AuditRecord struct {
	InvocationID string
	Scope        Scope
	ServerName   string
	Tool         string
	ArgsSHA256   string // hex SHA-256 of the canonical arguments JSON
	StartedAt    time.Time
	EndedAt      time.Time
	Outcome      InvocationStatus
}

// SchemaValidator checks JSON against a JSON Schema. An adapter over a
// maintained JSON Schema library implements it.
type SchemaValidator interface {
	// Validate returns nil, or a *SchemaError listing each violation.
	Validate(schema, doc json.RawMessage) error
	// FillDefaults returns doc with every missing object property whose
	// schema has a default added (in nested objects too), and the JSON
	// pointers of what it added; doc itself when nothing was missing.
	// Servers whose schemas list such properties as required fill them
	// themselves, so a call without them is one they accept.
	FillDefaults(schema, doc json.RawMessage) (json.RawMessage, []string, error)
}

// SchemaError lists where a document breaks its schema.
type SchemaError struct {
	Violations []Violation
}

// Violation is one broken rule: where (a JSON pointer such as "/limit")
// and what. Message is the validator's English, which agents, the API
// and logs read; Key and Data name the same rule as a message id and its
// values, so that a page can say it in the person's language. Key is
// empty when the validator did not say which rule (or the violation was
// stored before it did); a page then says only that the value does not
// match.
type Violation struct {
	Pointer string
	Message string
	Key     string
	Data    map[string]any
}

// Where is the violation's place in the English of Error, which API
// clients and agents read: its pointer, or "(root)" for the whole
// document, whose pointer is empty. Pages say the place through
// views.ViolationAtMessage instead.
func (v Violation) Where() string {
	if v.Pointer == "" {
		return "(root)"
	}
	return v.Pointer
}

// Error names every violation, so an API client learns all that is wrong
// from one refusal.
func (e *SchemaError) Error() string {
	if len(e.Violations) == 0 {
		return "does not match its schema"
	}
	var b strings.Builder
	b.WriteString("does not match its schema")
	for i, v := range e.Violations {
		if i > 0 {
			b.WriteByte(';')
		}
		b.WriteString(" at " + v.Where() + ": " + v.Message)
	}
	return b.String()
}
