package handlers

import (
	"encoding/json"

	"github.com/switchboard-mcp/switchboard/domain"
)

// InvocationDTO is an invocation as the API shows it. Timestamps are
// epoch milliseconds; result is the CallToolResult as the server sent it
// (cut short when truncated is set).
type InvocationDTO struct {
	ID         string          `json:"id"`
	ServerName string          `json:"serverName"`
	Tool       string          `json:"tool"`
	Arguments  json.RawMessage `json:"arguments"`
	Status     string          `json:"status"`
	Progress   *ProgressDTO    `json:"progress"`
	Result     json.RawMessage `json:"result"`
	Truncated  bool            `json:"truncated"`
	ResultSize int64           `json:"resultSize"`
	Error      *string         `json:"error"`
	// ErrorCode is set when Switchboard itself ended the call, e.g.
	// "interrupted" for a call its previous process left running.
	ErrorCode      *string `json:"errorCode,omitempty"`
	StartedAt      int64   `json:"startedAt"`
	EndedAt        *int64  `json:"endedAt"`
	ConversationID string  `json:"conversationId"`
	MessageID      string  `json:"messageId"`
	ToolCallID     string  `json:"toolCallId"`
	RetryOf        *string `json:"retryOf"`
	Version        uint64  `json:"version"`
	// Defaults are the JSON pointers of the arguments Switchboard filled
	// from the tool schema's defaults; empty when none were.
	Defaults []string `json:"defaults,omitempty"`
	// Mismatch lists the schema violations the arguments were sent with
	// anyway (validate=false, Send anyway, or a forwarded call).
	Mismatch []ViolationDTO `json:"mismatch,omitempty"`
	// Task is set when the call runs as an MCP task: the server's task id,
	// its last status and status message.
	Task *TaskDTO `json:"task,omitempty"`
	// Source is where the call came from: dashboard, api or gateway.
	Source string `json:"source"`
	// Client is the AI client behind a gateway call; null for the others.
	Client *ClientDTO `json:"client"`
	// Asks are the requests the server made while the call ran
	// (elicitation, sampling, roots) and how each ended; omitted when it
	// made none.
	Asks []AskDTO `json:"asks,omitempty"`
	// NeededScopes are the scopes a server asked for when it refused the
	// call for lack of access (errorCode needs_more_access): sign in with
	// more access, then retry.
	NeededScopes []string `json:"neededScopes,omitempty"`
}

// AskDTO is one request a server made during a call: its MCP method, when
// (epoch milliseconds), answered, answered_by_person, not_asked or failed, and why it was not
// asked or how it failed.
type AskDTO struct {
	Method  string `json:"method"`
	At      int64  `json:"at"`
	Outcome string `json:"outcome"`
	Detail  string `json:"detail,omitempty"`
}

// ClientDTO is an AI client as it introduced itself, and the name (never
// the secret) of the client token it used.
type ClientDTO struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	Token   string `json:"token"`
}

// TaskDTO is what the server last said about a call's task. Times are
// epoch milliseconds.
type TaskDTO struct {
	ID             string `json:"taskId"`
	Status         string `json:"status"`
	StatusMessage  string `json:"statusMessage,omitempty"`
	PollIntervalMs int64  `json:"pollIntervalMs,omitempty"`
	UpdatedAt      *int64 `json:"updatedAt"`
}

// ProgressDTO is the last progress notification of a running call.
type ProgressDTO struct {
	Progress float64  `json:"progress"`
	Total    *float64 `json:"total"`
	Message  string   `json:"message"`
}

// InvocationListDTO is one page of history; next is the id to pass as
// before for the following page, or null on the last one.
type InvocationListDTO struct {
	Invocations []InvocationDTO `json:"invocations"`
	Next        *string         `json:"next"`
}

// InvocationJSON converts an invocation for the API.
func InvocationJSON(inv domain.Invocation) InvocationDTO {
	d := InvocationDTO{
		ID: inv.ID, ServerName: inv.ServerName, Tool: inv.Tool, Arguments: inv.Arguments,
		Status: string(inv.Status), Truncated: inv.Truncated, ResultSize: inv.ResultSize,
		StartedAt: inv.StartedAt.UnixMilli(), ConversationID: inv.Key.ConversationID,
		MessageID: inv.Key.MessageID, ToolCallID: inv.Key.ToolCallID, Version: inv.Version,
		Source: inv.Source,
	}
	if d.Source == "" {
		d.Source = domain.SourceDashboard
	}
	if cl := inv.Client; cl != (domain.ClientIdentity{}) {
		d.Client = &ClientDTO{Name: cl.Name, Version: cl.Version, Token: cl.Token}
	}
	if len(d.Arguments) == 0 {
		d.Arguments = json.RawMessage(`{}`)
	}
	if len(inv.Result) > 0 && json.Valid(inv.Result) {
		d.Result = inv.Result
	}
	if inv.Progress != nil {
		d.Progress = &ProgressDTO{Progress: inv.Progress.Progress, Message: inv.Progress.Message}
		if inv.Progress.Total > 0 {
			d.Progress.Total = &inv.Progress.Total
		}
	}
	if inv.Error != "" {
		d.Error = &inv.Error
	}
	if inv.ErrorCode != "" {
		d.ErrorCode = &inv.ErrorCode
	}
	d.NeededScopes = inv.NeededScopes
	if !inv.EndedAt.IsZero() {
		ms := inv.EndedAt.UnixMilli()
		d.EndedAt = &ms
	}
	d.Defaults = inv.Defaults
	for _, v := range inv.Mismatch {
		d.Mismatch = append(d.Mismatch, ViolationDTO{Pointer: v.Pointer, Message: v.Message})
	}
	if t := inv.Task; t != nil {
		d.Task = &TaskDTO{ID: t.ID, Status: t.Status, StatusMessage: t.StatusMessage,
			PollIntervalMs: t.PollInterval.Milliseconds()}
		if !t.UpdatedAt.IsZero() {
			ms := t.UpdatedAt.UnixMilli()
			d.Task.UpdatedAt = &ms
		}
	}
	for _, a := range inv.Asks {
		d.Asks = append(d.Asks, AskDTO{Method: a.Method, At: a.At.UnixMilli(), Outcome: a.Outcome, Detail: a.Detail})
	}
	if inv.RetryOf != "" {
		d.RetryOf = &inv.RetryOf
	}
	return d
}
