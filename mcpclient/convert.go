package mcpclient

import (
	"bytes"
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

// rawTools indexes the tool objects of every tools/list page by name.
func rawTools(pages []json.RawMessage) map[string][]json.RawMessage {
	return rawEntries(pages, "tools", "name")
}

// rawEntries indexes the objects under listKey of every page of a list by
// their idKey field (a tool's or prompt's name, a resource's uri), in the
// order they came. mcp-go may leave some entries out, so its list is
// matched by key rather than by position; a key listed twice takes its
// objects in turn.
func rawEntries(pages []json.RawMessage, listKey, idKey string) map[string][]json.RawMessage {
	byKey := map[string][]json.RawMessage{}
	for _, page := range pages {
		var p map[string]json.RawMessage
		if json.Unmarshal(page, &p) != nil {
			continue
		}
		var entries []json.RawMessage
		if json.Unmarshal(p[listKey], &entries) != nil {
			continue
		}
		for _, obj := range entries {
			var fields map[string]json.RawMessage
			var id string
			if json.Unmarshal(obj, &fields) == nil && json.Unmarshal(fields[idKey], &id) == nil {
				byKey[id] = append(byKey[id], obj)
			}
		}
	}
	return byKey
}

// takeRaw returns the next object the server sent under key, if any.
func takeRaw(raw map[string][]json.RawMessage, key string) []byte {
	q := raw[key]
	if len(q) == 0 {
		return nil
	}
	raw[key] = q[1:]
	return q[0]
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
	input := within(obj, rt.InputSchema)
	if input == nil {
		input = []byte(t.RawInputSchema)
	}
	if input == nil {
		var err error
		if input, err = json.Marshal(t.InputSchema); err != nil {
			return domain.Tool{}, fmt.Errorf("tool %s: input schema: %w", t.Name, err)
		}
	}
	output := within(obj, rt.OutputSchema)
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

// within returns part, a value json.Unmarshal copied out of obj, as the
// same bytes inside obj instead, so that a tool's schemas share the memory
// of the object kept as its Raw rather than holding a second copy: with
// 200 servers listed, the copies were megabytes of the process's heap. The
// result's capacity ends with it, so an append cannot write into obj. A
// part not found in obj (never the case for bytes taken from it) is
// returned as it is.
func within(obj, part []byte) []byte {
	if len(part) == 0 {
		return part
	}
	i := bytes.Index(obj, part)
	if i < 0 {
		return part
	}
	return obj[i : i+len(part) : i+len(part)]
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

// convertResources copies the resources mcp-go decoded, each with the
// object the server sent for it (by uri).
func convertResources(in []mcp.Resource, raw map[string][]json.RawMessage) []domain.Resource {
	out := make([]domain.Resource, 0, len(in))
	for _, r := range in {
		out = append(out, domain.Resource{
			URI:         r.URI,
			Name:        r.Name,
			Title:       r.Title,
			Description: r.Description,
			MIMEType:    r.MIMEType,
			Size:        r.Size,
			Raw:         takeRaw(raw, r.URI),
		})
	}
	return out
}

// convertResourceTemplates copies the templates mcp-go decoded, each with
// the object the server sent for it (by uriTemplate).
func convertResourceTemplates(in []mcp.ResourceTemplate, raw map[string][]json.RawMessage) []domain.ResourceTemplate {
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
			Raw:         takeRaw(raw, uri),
		})
	}
	return out
}

// convertPrompts copies the prompts mcp-go decoded, each with the object
// the server sent for it (by name).
func convertPrompts(in []mcp.Prompt, raw map[string][]json.RawMessage) []domain.Prompt {
	out := make([]domain.Prompt, 0, len(in))
	for _, p := range in {
		var args []domain.PromptArgument
		for _, a := range p.Arguments {
			args = append(args, domain.PromptArgument{Name: a.Name, Description: a.Description, Required: a.Required})
		}
		out = append(out, domain.Prompt{Name: p.Name, Title: p.Title, Description: p.Description, Arguments: args,
			Raw: takeRaw(raw, p.Name)})
	}
	return out
}
