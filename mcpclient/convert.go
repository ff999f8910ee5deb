package mcpclient

import (
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
)

func convertTools(in []mcp.Tool) ([]domain.Tool, error) {
	out := make([]domain.Tool, 0, len(in))
	for _, t := range in {
		dt, err := convertTool(t)
		if err != nil {
			return nil, err
		}
		out = append(out, dt)
	}
	return out, nil
}

// convertTool copies a tool. mcp-go decodes schemas into its own struct,
// so the raw JSON is that struct encoded again: property order survives,
// top-level keywords other than type, properties, required,
// additionalProperties and $defs do not.
func convertTool(t mcp.Tool) (domain.Tool, error) {
	input := []byte(t.RawInputSchema)
	if input == nil {
		var err error
		if input, err = json.Marshal(t.InputSchema); err != nil {
			return domain.Tool{}, fmt.Errorf("tool %s: input schema: %w", t.Name, err)
		}
	}
	output := []byte(t.RawOutputSchema)
	if output == nil && t.OutputSchema.Type != "" {
		var err error
		if output, err = json.Marshal(t.OutputSchema); err != nil {
			return domain.Tool{}, fmt.Errorf("tool %s: output schema: %w", t.Name, err)
		}
	}
	title := t.Title
	if title == "" {
		title = t.Annotations.Title
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
		IconURLs: iconURLs(t.Icons),
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
