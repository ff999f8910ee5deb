package mcpserver

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
)

// mcp-go's server re-encodes every result from its own types, and those
// types drop what they do not model (fields of content items such as
// annotations or _meta, unknown content types). A gateway must hand the
// client what the server sent, so results are rebuilt here from the raw
// JSON with items that marshal as the bytes they came in: rawContent and
// rawResourceContents embed one of mcp-go's item types only to satisfy its
// interfaces (their marker methods are unexported), and their MarshalJSON
// writes the server's bytes. mcp-go then only assembles the envelope
// (content, structuredContent as RawStructuredContent, isError, _meta).

// rawContent is one content item exactly as the server sent it.
type rawContent struct {
	mcp.TextContent
	raw json.RawMessage
}

func (c rawContent) MarshalJSON() ([]byte, error) { return c.raw, nil }

// rawResourceContents is one entry of resources/read's contents exactly as
// the server sent it.
type rawResourceContents struct {
	mcp.TextResourceContents
	raw json.RawMessage
}

func (c rawResourceContents) MarshalJSON() ([]byte, error) { return c.raw, nil }

// rawMeta carries a result's _meta object through unchanged: mcp.Meta
// marshals its AdditionalFields as given, and json.RawMessage values keep
// their bytes (and big numbers) intact.
func rawMeta(raw json.RawMessage) (*mcp.Meta, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return nil, fmt.Errorf("_meta: %w", err)
	}
	m := &mcp.Meta{AdditionalFields: make(map[string]any, len(fields))}
	for k, v := range fields {
		m.AdditionalFields[k] = v
	}
	return m, nil
}

var errNotObject = errors.New("the server's result is not a JSON object")

// toolResult rebuilds a CallToolResult from the server's JSON.
func toolResult(raw json.RawMessage) (*mcp.CallToolResult, error) {
	var top struct {
		Meta              json.RawMessage   `json:"_meta"`
		Content           []json.RawMessage `json:"content"`
		StructuredContent json.RawMessage   `json:"structuredContent"`
		IsError           bool              `json:"isError"`
	}
	if err := json.Unmarshal(raw, &top); err != nil {
		return nil, fmt.Errorf("%w: %w", errNotObject, err)
	}
	res := &mcp.CallToolResult{IsError: top.IsError, Content: make([]mcp.Content, 0, len(top.Content))}
	for _, c := range top.Content {
		res.Content = append(res.Content, rawContent{raw: c})
	}
	if len(top.StructuredContent) > 0 && string(top.StructuredContent) != "null" {
		res.RawStructuredContent = top.StructuredContent
	}
	meta, err := rawMeta(top.Meta)
	if err != nil {
		return nil, err
	}
	res.Meta = meta
	return res, nil
}

// resourceContents rebuilds resources/read's contents from the server's
// JSON.
func resourceContents(raw json.RawMessage) ([]mcp.ResourceContents, error) {
	var top struct {
		Contents []json.RawMessage `json:"contents"`
	}
	if err := json.Unmarshal(raw, &top); err != nil {
		return nil, fmt.Errorf("%w: %w", errNotObject, err)
	}
	out := make([]mcp.ResourceContents, 0, len(top.Contents))
	for _, c := range top.Contents {
		out = append(out, rawResourceContents{raw: c})
	}
	return out, nil
}

// promptResult rebuilds a GetPromptResult from the server's JSON; each
// message's content passes through as sent.
func promptResult(raw json.RawMessage) (*mcp.GetPromptResult, error) {
	var top struct {
		Meta        json.RawMessage `json:"_meta"`
		Description string          `json:"description"`
		Messages    []struct {
			Role    mcp.Role        `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(raw, &top); err != nil {
		return nil, fmt.Errorf("%w: %w", errNotObject, err)
	}
	res := &mcp.GetPromptResult{Description: top.Description, Messages: make([]mcp.PromptMessage, 0, len(top.Messages))}
	for _, m := range top.Messages {
		res.Messages = append(res.Messages, mcp.PromptMessage{Role: m.Role, Content: rawContent{raw: m.Content}})
	}
	meta, err := rawMeta(top.Meta)
	if err != nil {
		return nil, err
	}
	res.Meta = meta
	return res, nil
}

// completion reads completion/complete's answer.
func completion(raw json.RawMessage) (*mcp.Completion, error) {
	var top struct {
		Completion mcp.Completion `json:"completion"`
	}
	if err := json.Unmarshal(raw, &top); err != nil {
		return nil, fmt.Errorf("%w: %w", errNotObject, err)
	}
	if top.Completion.Values == nil {
		top.Completion.Values = []string{}
	}
	return &top.Completion, nil
}

// toolError is a tool error result: the model reads it and can react,
// where a JSON-RPC error would only end the call.
func toolError(msg string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{mcp.NewTextContent(msg)}}
}
