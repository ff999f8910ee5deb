package demoserver

import (
	"context"
	"encoding/base64"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// URIs of the fixed resources; tools that link to or embed them use the same
// constants so the links always resolve.
const (
	readmeURI = "demo://readme"
	configURI = "demo://config.json"
	logoURI   = "demo://logo.png"
	toneURI   = "demo://tone.wav"
)

// readmeText is the Markdown body of demo://readme.
const readmeText = `# Switchboard demo server

This server exists so that Switchboard always has a real MCP peer to supervise.

- Call **markdown_report**, **tiny_image** or **short_tone** to see each content type.
- Read ` + "`demo://notes/{id}`" + ` with an id such as ` + "`welcome`" + `.
`

// configText is the JSON body of demo://config.json.
const configText = `{
  "greeting": "hello",
  "maxSteps": 100,
  "features": ["tools", "resources", "prompts", "logging"]
}
`

// demoResource is one fixed resource: its listing metadata and its body.
// Exactly one of text and blob is set.
type demoResource struct {
	uri, name, title, description, mimeType string
	text                                    string
	blob                                    []byte
}

// size is the resource's length in bytes before base64 encoding, as the
// protocol defines it.
func (r demoResource) size() int64 {
	if r.blob != nil {
		return int64(len(r.blob))
	}
	return int64(len(r.text))
}

// contents is the resources/read answer for r.
func (r demoResource) contents() mcp.ResourceContents {
	if r.blob != nil {
		return mcp.BlobResourceContents{URI: r.uri, MIMEType: r.mimeType, Blob: base64.StdEncoding.EncodeToString(r.blob)}
	}
	return mcp.TextResourceContents{URI: r.uri, MIMEType: r.mimeType, Text: r.text}
}

// link is a resource_link content item describing r, size included.
func (r demoResource) link() mcp.ResourceLink {
	l := mcp.NewResourceLink(r.uri, r.name, r.description, r.mimeType)
	l.Title = r.title
	size := r.size()
	l.Size = &size
	return l
}

// resources lists the fixed resources in the order they are registered.
func (d *demo) resources() []demoResource {
	return []demoResource{
		{uri: readmeURI, name: "readme", title: "Read me", mimeType: "text/markdown",
			description: "What the demo server is for, as Markdown.", text: readmeText},
		{uri: configURI, name: "config.json", title: "Demo configuration", mimeType: "application/json",
			description: "A small JSON document.", text: configText},
		{uri: logoURI, name: "logo.png", title: "Logo", mimeType: "image/png",
			description: "The 16x16 Switchboard logo as a PNG blob.", blob: d.media.png},
		{uri: toneURI, name: "tone.wav", title: "Tone", mimeType: "audio/wav",
			description: "A quarter-second 440 Hz tone as a WAV blob.", blob: d.media.wav},
	}
}

// addResources registers the fixed resources and the notes template.
func (d *demo) addResources(s *server.MCPServer) {
	modified := d.clock().UTC().Format("2006-01-02T15:04:05Z")
	for _, r := range d.resources() {
		res := mcp.NewResource(r.uri, r.name,
			mcp.WithResourceTitle(r.title),
			mcp.WithResourceDescription(r.description),
			mcp.WithMIMEType(r.mimeType),
			mcp.WithResourceSize(r.size()),
			mcp.WithAnnotations([]mcp.Role{mcp.RoleUser, mcp.RoleAssistant}, 0.5, modified),
		)
		s.AddResource(res, func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{r.contents()}, nil
		})
	}
	s.AddResourceTemplate(mcp.NewResourceTemplate("demo://notes/{id}", "note",
		mcp.WithTemplateTitle("Note"),
		mcp.WithTemplateDescription("A short Markdown note; ids: "+fmt.Sprint(d.notes.ids())+". delete_note removes one."),
		mcp.WithTemplateMIMEType("text/markdown"),
	), d.readNote)
}

// readNote serves demo://notes/{id} from the note store.
func (d *demo) readNote(_ context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
	id := templateArg(req.Params.Arguments, "id")
	text, ok := d.notes.get(id)
	if !ok {
		return nil, fmt.Errorf("note %q: %w", id, server.ErrResourceNotFound)
	}
	return []mcp.ResourceContents{mcp.TextResourceContents{URI: req.Params.URI, MIMEType: "text/markdown", Text: text}}, nil
}

// templateArg reads one matched URI-template variable. mcp-go passes matches
// as []string (a variable may explode into several values), so the first one
// is taken.
func templateArg(args map[string]any, name string) string {
	switch v := args[name].(type) {
	case string:
		return v
	case []string:
		if len(v) > 0 {
			return v[0]
		}
	}
	return ""
}
