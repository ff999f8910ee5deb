package views

import "github.com/switchboard-mcp/switchboard/domain"

// InvocationApprovalProps is the question a held call asks a person: run
// this tool, with these arguments (shown open on the card), for this
// client?
type InvocationApprovalProps struct {
	Question   Message
	ApproveURL string
	DenyURL    string
}

// NewInvocationApprovalProps returns the question for a call awaiting
// approval, and nil for any other.
func NewInvocationApprovalProps(inv domain.Invocation, approveURL, denyURL string) *InvocationApprovalProps {
	if inv.Status != domain.InvocationAwaitingApproval {
		return nil
	}
	client := inv.Client.Name
	id := "InvocationApprovalQuestion"
	if client == "" {
		id = "InvocationApprovalQuestionNoClient"
	}
	return &InvocationApprovalProps{
		Question:   Message{ID: id, Data: map[string]any{"Tool": inv.Tool, "Server": inv.ServerName, "Client": client}},
		ApproveURL: approveURL, DenyURL: denyURL,
	}
}
