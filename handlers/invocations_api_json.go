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
	if !inv.EndedAt.IsZero() {
		ms := inv.EndedAt.UnixMilli()
		d.EndedAt = &ms
	}
	if inv.RetryOf != "" {
		d.RetryOf = &inv.RetryOf
	}
	return d
}
