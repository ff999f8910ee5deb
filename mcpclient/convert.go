package mcpclient

import (
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
)

// convertTools copies the tools mcp-go decoded, each with the object the
// server sent for it (raw, by name; see rawTools).
func convertTools(in []mcp.Tool, raw map[string][]json.RawMessage) ([]domain.Tool, error) {
	out := make([]domain.Tool, 0, len(in))
	for _, t := range in {
		var obj json.RawMessage
		if q := raw[t.Name]; len(q) > 0 {
			obj, raw[t.Name] = q[0], q[1:]
		}
		dt, err := convertTool(t, obj)
		if err != nil {
			return nil, err
		}
		out = append(out, dt)
	}
	return out, nil
}

// rawTools indexes the tool objects of every tools/list page by name, in
// the order they came. mcp-go may leave some tools out, so its list is
// matched by name rather than by position; a name listed twice takes its
// objects in turn.
func rawTools(pages []json.RawMessage) map[string][]json.RawMessage {
	byName := map[string][]json.RawMessage{}
	for _, page := range pages {
		var p struct {
			Tools []json.RawMessage `json:"tools"`
		}
		if json.Unmarshal(page, &p) != nil {
			continue
		}
		for _, obj := range p.Tools {
			var n struct {
				Name string `json:"name"`
			}
			if json.Unmarshal(obj, &n) == nil {
				byName[n.Name] = append(byName[n.Name], obj)
			}
		}
	}
	return byName
}

// rawTool is the part of a tool object taken from the server's bytes
// rather than from mcp-go: its schemas decode into mcp-go's struct, which
// keeps only some keywords ($schema and others are lost), and mcp-go's
// execution has no room for fields it does not know.
type rawTool struct {
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema"`
	Execution    struct {
		TaskSupport string `json:"taskSupport"`
	} `json:"execution"`
}

// convertTool copies a tool. With obj, the tool as the server sent it,
// the schemas and task support come from obj and obj is kept as Raw;
// without it, the schemas are mcp-go's struct encoded again, which loses
// top-level keywords other than type, properties, required,
// additionalProperties and $defs.
func convertTool(t mcp.Tool, obj json.RawMessage) (domain.Tool, error) {
	var rt rawTool
	if obj != nil {
		if err := json.Unmarshal(obj, &rt); err != nil {
			return domain.Tool{}, fmt.Errorf("tool %s: %w", t.Name, err)
		}
	}
	input := []byte(rt.InputSchema)
	if input == nil {
		input = []byte(t.RawInputSchema)
	}
	if input == nil {
		var err error
		if input, err = json.Marshal(t.InputSchema); err != nil {
			return domain.Tool{}, fmt.Errorf("tool %s: input schema: %w", t.Name, err)
		}
	}
	output := []byte(rt.OutputSchema)
	if output == nil {
		output = []byte(t.RawOutputSchema)
	}
	if output == nil && t.OutputSchema.Type != "" {
		var err error
		if output, err = json.Marshal(t.OutputSchema); err != nil {
			return domain.Tool{}, fmt.Errorf("tool %s: output schema: %w", t.Name, err)
		}
	}
	if string(output) == "null" {
		output = nil
	}
	title := t.Title
	if title == "" {
		title = t.Annotations.Title
	}
	support := rt.Execution.TaskSupport
	if support == "" && t.Execution != nil {
		support = string(t.Execution.TaskSupport)
	}
	return domain.Tool{
		Name:         t.Name,
		Title:        title,
		Description:  t.Description,
		InputSchema:  input,
		OutputSchema: output,
		Annotations: domain.Annotations{
			Title:           t.Annotations.Title,
			ReadOnlyHint:    t.Annotations.ReadOnlyHint,
			DestructiveHint: t.Annotations.DestructiveHint,
			IdempotentHint:  t.Annotations.IdempotentHint,
			OpenWorldHint:   t.Annotations.OpenWorldHint,
		},
		IconURLs:    iconURLs(t.Icons),
		TaskSupport: support,
		Raw:         []byte(obj),
	}, nil
}

func iconURLs(icons []mcp.Icon) []string {
	if len(icons) == 0 {
		return nil
	}
	urls := make([]string, 0, len(icons))
	for _, i := range icons {
		if i.Src != "" {
			urls = append(urls, i.Src)
		}
	}
	return urls
}

func convertResources(in []mcp.Resource) []domain.Resource {
	out := make([]domain.Resource, 0, len(in))
	for _, r := range in {
		out = append(out, domain.Resource{
			URI:         r.URI,
			Name:        r.Name,
			Title:       r.Title,
			Description: r.Description,
			MIMEType:    r.MIMEType,
			Size:        r.Size,
		})
	}
	return out
}

func convertResourceTemplates(in []mcp.ResourceTemplate) []domain.ResourceTemplate {
	out := make([]domain.ResourceTemplate, 0, len(in))
	for _, t := range in {
		var uri string
		if t.URITemplate != nil && t.URITemplate.Template != nil {
			uri = t.URITemplate.Raw()
		}
		out = append(out, domain.ResourceTemplate{
			URITemplate: uri,
			Name:        t.Name,
			Title:       t.Title,
			Description: t.Description,
			MIMEType:    t.MIMEType,
		})
	}
	return out
}

func convertPrompts(in []mcp.Prompt) []domain.Prompt {
	out := make([]domain.Prompt, 0, len(in))
	for _, p := range in {
		var args []domain.PromptArgument
		for _, a := range p.Arguments {
			args = append(args, domain.PromptArgument{Name: a.Name, Description: a.Description, Required: a.Required})
		}
		out = append(out, domain.Prompt{Name: p.Name, Title: p.Title, Description: p.Description, Arguments: args})
	}
	return out
}
