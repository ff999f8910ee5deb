package demoserver

import (
	"context"
	"fmt"
	"net/url"
	"strconv"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// addAnnotatedTools registers small tools whose point is their hints: between
// them every hint appears both true and false.
func (d *demo) addAnnotatedTools(s *server.MCPServer) {
	s.AddTool(newTool("echo", "Echo",
		"Returns the message it is given, unchanged.",
		readOnlyLocal,
		mcp.WithString("message", mcp.Required(), mcp.Description("Text to send back."))), echo)
	s.AddTool(newTool("add", "Add two numbers",
		"Adds a and b and returns the sum as text.",
		readOnlyLocal,
		mcp.WithNumber("a", mcp.Required(), mcp.Description("First addend.")),
		mcp.WithNumber("b", mcp.Required(), mcp.Description("Second addend."))), add)
	s.AddTool(newTool("delete_note", "Delete note",
		"Deletes the note demo://notes/{id}. Deleting a note that is already gone succeeds and changes nothing.",
		behaviour{destructive: true, idempotent: true},
		mcp.WithString("id", mcp.Required(), mcp.Description("Id of the note to delete, e.g. shopping."))), d.deleteNote)
	s.AddTool(newTool("fetch_url_stub", "Fetch URL (stub)",
		"Pretends to fetch a URL: says what it would fetch without touching the network. Marked open-world because a real fetcher would reach outside the server.",
		behaviour{readOnly: true, openWorld: true},
		mcp.WithString("url", mcp.Required(), mcp.Description("Absolute http or https URL."))), fetchURLStub)
}

// echo returns its required message argument.
func echo(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	msg, err := req.RequireString("message")
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	return mcp.NewToolResultText(msg), nil
}

// add returns a+b formatted without a needless fraction.
func add(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a, err := req.RequireFloat("a")
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	b, err := req.RequireFloat("b")
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	return mcp.NewToolResultText(strconv.FormatFloat(a+b, 'f', -1, 64)), nil
}

// deleteNote removes a note from the store behind demo://notes/{id}.
func (d *demo) deleteNote(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	id, err := req.RequireString("id")
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	if !d.notes.delete(id) {
		return mcp.NewToolResultText(fmt.Sprintf("Note %q was already gone; nothing deleted.", id)), nil
	}
	return mcp.NewToolResultText(fmt.Sprintf("Deleted note %q.", id)), nil
}

// fetchURLStub validates the URL and describes the request it would make; it
// never opens a connection, so the demo works offline and in tests.
func fetchURLStub(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	raw, err := req.RequireString("url")
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return mcp.NewToolResultError(fmt.Sprintf("%q is not an absolute http or https URL", raw)), nil
	}
	return mcp.NewToolResultText(fmt.Sprintf("Would fetch GET %s from host %s (stub: no network request was made).", u, u.Host)), nil
}
