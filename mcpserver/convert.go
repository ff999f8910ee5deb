package mcpserver

import (
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
)

// exposeTool turns a server's tool into the one clients see under name.
// It starts from the tool object exactly as the server listed it (Raw),
// so _meta, icons and annotations pass through, and it hands the schemas
// over raw: mcp.Tool's own schema type drops a top-level anyOf,
// description and $schema. Execution is left out: the gateway answers
// every call itself (running a task-only tool as a task upstream), so
// clients never need task augmentation. A tool mcp-go would refuse to
// register (its SetTools panics on an invalid x-mcp-header annotation) is
// reported as an error and left out by the caller.
func exposeTool(name string, t domain.Tool) (mcp.Tool, error) {
	var out mcp.Tool
	var schemas struct {
		Input  json.RawMessage `json:"inputSchema"`
		Output json.RawMessage `json:"outputSchema"`
	}
	if len(t.Raw) > 0 {
		if err := json.Unmarshal(t.Raw, &out); err != nil {
			return mcp.Tool{}, fmt.Errorf("tool %q: %w", t.Name, err)
		}
		fromRaw(t.Raw, &out)
		if err := json.Unmarshal(t.Raw, &schemas); err != nil {
			return mcp.Tool{}, fmt.Errorf("tool %q: %w", t.Name, err)
		}
	} else {
		out = mcp.Tool{Title: t.Title, Description: t.Description}
		schemas.Input, schemas.Output = t.InputSchema, t.OutputSchema
	}
	out.Name = name
	out.InputSchema = mcp.ToolInputSchema{}
	out.OutputSchema = mcp.ToolOutputSchema{}
	out.RawInputSchema = nil
	out.RawOutputSchema = nil
	out.Execution = nil
	if len(schemas.Input) > 0 && string(schemas.Input) != "null" {
		out.RawInputSchema = schemas.Input
	} else {
		out.RawInputSchema = json.RawMessage(`{"type":"object"}`)
	}
	if len(schemas.Output) > 0 && string(schemas.Output) != "null" {
		out.RawOutputSchema = schemas.Output
	}
	if err := mcp.ValidateParamHeaderAnnotations(&out); err != nil {
		return mcp.Tool{}, fmt.Errorf("tool %q: %w", t.Name, err)
	}
	return out, nil
}

// exposePrompt turns a server's prompt into the one clients see under
// name, starting from the object exactly as the server listed it (Raw), so
// _meta, icons and every argument field mcp-go models pass through.
func exposePrompt(name string, p domain.Prompt) mcp.Prompt {
	var out mcp.Prompt
	if !fromRaw(p.Raw, &out) {
		out = mcp.Prompt{Title: p.Title, Description: p.Description}
		for _, a := range p.Arguments {
			out.Arguments = append(out.Arguments, mcp.PromptArgument{Name: a.Name, Description: a.Description, Required: a.Required})
		}
	}
	out.Name = name
	return out
}

// exposeResource starts from the resource exactly as the server listed it
// (Raw), so annotations, icons, size and _meta pass through.
func exposeResource(r domain.Resource) mcp.Resource {
	var out mcp.Resource
	if fromRaw(r.Raw, &out) && out.URI == r.URI {
		return out
	}
	out = mcp.Resource{URI: r.URI, Name: r.Name, Title: r.Title, Description: r.Description, MIMEType: r.MIMEType}
	if r.Size != nil {
		out.Size = r.Size
	}
	return out
}

// exposeTemplate starts from the template exactly as the server listed it
// (Raw). It returns false for a template mcp-go cannot parse (its
// constructor panics on one), which is then left out.
func exposeTemplate(t domain.ResourceTemplate) (out mcp.ResourceTemplate, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	if fromRaw(t.Raw, &out) && out.URITemplate != nil && out.URITemplate.Raw() == t.URITemplate {
		return out, true
	}
	out = mcp.NewResourceTemplate(t.URITemplate, t.Name)
	out.Title, out.Description, out.MIMEType = t.Title, t.Description, t.MIMEType
	return out, true
}

// fromRaw decodes a listed object into one of mcp-go's entry types and
// puts its _meta back byte for byte (mcp.Meta would turn big numbers into
// floats). It reports false when there is nothing usable to decode.
func fromRaw(raw []byte, into any) bool {
	if len(raw) == 0 || json.Unmarshal(raw, into) != nil {
		return false
	}
	var top struct {
		Meta json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(raw, &top) != nil {
		return false
	}
	meta, err := rawMeta(top.Meta)
	if err != nil {
		return false
	}
	switch v := into.(type) {
	case *mcp.Prompt:
		v.Meta = meta
	case *mcp.Resource:
		v.Meta = meta
	case *mcp.ResourceTemplate:
		v.Meta = meta
	case *mcp.Tool:
		v.Meta = meta
	}
	return true
}
