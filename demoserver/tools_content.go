package demoserver

import (
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// addContentTools registers one tool per kind of result content, so a client
// can check that it renders each of them.
func (d *demo) addContentTools(s *server.MCPServer) {
	s.AddTool(newTool("markdown_report", "Markdown report",
		"Returns a short status report as Markdown text with a heading, a list, a fenced code block and a link.",
		readOnlyLocal), d.markdownReport)
	s.AddTool(newTool("tiny_image", "Tiny image",
		"Returns the 16x16 Switchboard logo as PNG image content.",
		readOnlyLocal), d.tinyImage)
	s.AddTool(newTool("short_tone", "Short tone",
		"Returns a quarter-second 440 Hz tone as WAV audio content.",
		readOnlyLocal), d.shortTone)
	s.AddTool(newTool("resource_links", "Resource links",
		"Returns resource_link items pointing at every resource this server lists.",
		readOnlyLocal), d.resourceLinks)
	s.AddTool(newTool("embedded_text_resource", "Embedded text resource",
		"Returns the demo://readme resource embedded as Markdown text.",
		readOnlyLocal), d.embeddedText)
	s.AddTool(newTool("embedded_blob_resource", "Embedded blob resource",
		"Returns the demo://logo.png resource embedded as a base64 PNG blob.",
		readOnlyLocal), d.embeddedBlob)
	s.AddTool(newTool("structured_weather", "Structured weather",
		"Returns a made-up weather observation for a city as structured content with a text fallback.",
		readOnlyLocal,
		mcp.WithString("city", mcp.Description("City to report on."), mcp.DefaultString("Lisbon")),
		mcp.WithOutputSchema[Weather]()), d.structuredWeather)
	s.AddTool(newTool("fail_always", "Always fails",
		"Always returns a tool error (isError true), to show how clients present failures.",
		readOnlyLocal), failAlways)
}

// markdownReport returns text that only looks right when the client renders
// Markdown, and carries content annotations so clients can show those too.
func (d *demo) markdownReport(_ context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	text := fmt.Sprintf(`# Demo report

Generated at %s.

- **tools**: each returns a different kind of content
- **resources**: %d, plus the template demo://notes/{id}
- **prompts**: 2

`+"```go"+`
fmt.Println("hello from the demo server")
`+"```"+`

Read more in the [MCP specification](https://modelcontextprotocol.io/specification).
`, d.clock().UTC().Format("2006-01-02 15:04:05 MST"), len(d.resources()))
	content := mcp.NewTextContent(text)
	priority := 0.8
	content.Annotations = &mcp.Annotations{
		Audience: []mcp.Role{mcp.RoleUser, mcp.RoleAssistant},
		Priority: &priority,
	}
	return &mcp.CallToolResult{Content: []mcp.Content{content}}, nil
}

// tinyImage returns image content with a caption so text-only clients still
// have something to show.
func (d *demo) tinyImage(_ context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return mcp.NewToolResultImage("The Switchboard logo, 16x16 pixels.", d.media.pngBase64(), "image/png"), nil
}

// shortTone returns audio content with a caption so text-only clients still
// have something to show.
func (d *demo) shortTone(_ context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return mcp.NewToolResultAudio("A 440 Hz tone, 0.25 s.", d.media.wavBase64(), "audio/wav"), nil
}

// resourceLinks points at the listed resources rather than inlining them, the
// way a tool would hand back large files.
func (d *demo) resourceLinks(_ context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	resources := d.resources()
	content := make([]mcp.Content, 0, len(resources))
	for _, r := range resources {
		content = append(content, r.link())
	}
	return &mcp.CallToolResult{Content: content}, nil
}

// embeddedText inlines the readme so the client does not need a
// resources/read round trip.
func (d *demo) embeddedText(_ context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return &mcp.CallToolResult{Content: []mcp.Content{
		mcp.NewEmbeddedResource(mcp.TextResourceContents{URI: readmeURI, MIMEType: "text/markdown", Text: readmeText}),
	}}, nil
}

// embeddedBlob inlines the logo as a binary resource, which clients must
// treat differently from an image content item.
func (d *demo) embeddedBlob(_ context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return &mcp.CallToolResult{Content: []mcp.Content{
		mcp.NewEmbeddedResource(mcp.BlobResourceContents{URI: logoURI, MIMEType: "image/png", Blob: d.media.pngBase64()}),
	}}, nil
}

// Weather is the structured result of structured_weather; its JSON schema is
// the tool's declared output schema.
type Weather struct {
	City         string  `json:"city" jsonschema:"the city the observation is for"`
	TemperatureC float64 `json:"temperatureC" jsonschema:"air temperature in degrees Celsius"`
	Conditions   string  `json:"conditions" jsonschema:"a short description of the sky"`
	HumidityPct  int     `json:"humidityPct" jsonschema:"relative humidity in percent"`
	ObservedAt   string  `json:"observedAt" jsonschema:"RFC 3339 time of the observation"`
}

// structuredWeather returns structured content that matches the declared
// output schema plus the text fallback older clients read.
func (d *demo) structuredWeather(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	w := Weather{
		City:         req.GetString("city", "Lisbon"),
		TemperatureC: 21.5,
		Conditions:   "partly cloudy",
		HumidityPct:  64,
		ObservedAt:   d.clock().UTC().Format("2006-01-02T15:04:05Z07:00"),
	}
	text := fmt.Sprintf("%s: %.1f °C, %s, humidity %d%% (observed %s)",
		w.City, w.TemperatureC, w.Conditions, w.HumidityPct, w.ObservedAt)
	return mcp.NewToolResultStructured(w, text), nil
}

// failAlways reports failure inside the result, which is how the protocol
// wants tool-level errors delivered (as opposed to a JSON-RPC error).
func failAlways(_ context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return mcp.NewToolResultError("fail_always failed on purpose: this tool exists to show how a client presents a tool error."), nil
}
