package handlers

import (
	"bytes"
	"encoding/json"

	"github.com/switchboard-mcp/switchboard/domain"
)

// CapabilitiesDTO is everything a server lists. Every list is an array,
// never null, so clients can iterate without checks.
type CapabilitiesDTO struct {
	Tools             []ToolDTO             `json:"tools"`
	Resources         []ResourceDTO         `json:"resources"`
	ResourceTemplates []ResourceTemplateDTO `json:"resourceTemplates"`
	Prompts           []PromptDTO           `json:"prompts"`
	// AskAll is set when policies are known: whether every tool of the
	// server is asked about.
	AskAll *bool `json:"askAll,omitempty"`
}

// ToolDTO is one tool with its schemas passed through untouched and the
// risk tier the dashboard badges it with. A tool whose object the server
// sent is known (Raw) is written as that object, unknown fields, _meta,
// icons and execution included, with riskTier added; the other fields
// describe only tools without it.
type ToolDTO struct {
	Raw          json.RawMessage `json:"-"`
	Name         string          `json:"name"`
	Title        string          `json:"title"`
	Description  string          `json:"description"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema"` // null when the tool declares none
	Annotations  AnnotationsDTO  `json:"annotations"`
	RiskTier     string          `json:"riskTier"`
	// Policy is the tool's policy in effect (allow, ask, deny, hidden) and
	// Annotated whether the server gave it any behaviour hints; both are
	// empty when policies are not known.
	Policy    string `json:"policy,omitempty"`
	Annotated *bool  `json:"annotated,omitempty"`
}

// AnnotationsDTO keeps "not said" (null) apart from false, since the MCP
// defaults differ per hint.
type AnnotationsDTO struct {
	Title           string `json:"title"`
	ReadOnlyHint    *bool  `json:"readOnlyHint"`
	DestructiveHint *bool  `json:"destructiveHint"`
	IdempotentHint  *bool  `json:"idempotentHint"`
	OpenWorldHint   *bool  `json:"openWorldHint"`
}

// ResourceDTO is one resource; Size is null when the server did not say.
// Like a tool, a resource whose object the server sent is known (Raw) is
// written as that object; so are templates and prompts.
type ResourceDTO struct {
	Raw         json.RawMessage `json:"-"`
	URI         string          `json:"uri"`
	Name        string          `json:"name"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	MIMEType    string          `json:"mimeType"`
	Size        *int64          `json:"size"`
}

// ResourceTemplateDTO is one resource template.
type ResourceTemplateDTO struct {
	Raw         json.RawMessage `json:"-"`
	URITemplate string          `json:"uriTemplate"`
	Name        string          `json:"name"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	MIMEType    string          `json:"mimeType"`
}

// PromptDTO is one prompt with the arguments it accepts.
type PromptDTO struct {
	Raw         json.RawMessage     `json:"-"`
	Name        string              `json:"name"`
	Title       string              `json:"title"`
	Description string              `json:"description"`
	Arguments   []PromptArgumentDTO `json:"arguments"`
}

// PromptArgumentDTO is one argument of a prompt.
type PromptArgumentDTO struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Required    bool   `json:"required"`
}

// CapabilitiesJSON converts a server's lists into their wire form.
func CapabilitiesJSON(c domain.Capabilities) CapabilitiesDTO {
	out := CapabilitiesDTO{
		Tools:             make([]ToolDTO, len(c.Tools)),
		Resources:         make([]ResourceDTO, len(c.Resources)),
		ResourceTemplates: make([]ResourceTemplateDTO, len(c.ResourceTemplates)),
		Prompts:           make([]PromptDTO, len(c.Prompts)),
	}
	for i, t := range c.Tools {
		a := t.Annotations
		out.Tools[i] = ToolDTO{
			Name:         t.Name,
			Title:        t.Title,
			Description:  t.Description,
			InputSchema:  rawJSON(t.InputSchema),
			OutputSchema: rawJSON(t.OutputSchema),
			Annotations: AnnotationsDTO{
				Title:           a.Title,
				ReadOnlyHint:    a.ReadOnlyHint,
				DestructiveHint: a.DestructiveHint,
				IdempotentHint:  a.IdempotentHint,
				OpenWorldHint:   a.OpenWorldHint,
			},
			RiskTier: string(t.Risk()),
			Raw:      toolObject(t.Raw),
		}
	}
	for i, r := range c.Resources {
		out.Resources[i] = ResourceDTO{URI: r.URI, Name: r.Name, Title: r.Title, Description: r.Description, MIMEType: r.MIMEType, Size: r.Size,
			Raw: toolObject(r.Raw)}
	}
	for i, r := range c.ResourceTemplates {
		out.ResourceTemplates[i] = ResourceTemplateDTO{URITemplate: r.URITemplate, Name: r.Name, Title: r.Title, Description: r.Description, MIMEType: r.MIMEType,
			Raw: toolObject(r.Raw)}
	}
	for i, p := range c.Prompts {
		args := make([]PromptArgumentDTO, len(p.Arguments))
		for j, a := range p.Arguments {
			args[j] = PromptArgumentDTO{Name: a.Name, Description: a.Description, Required: a.Required}
		}
		out.Prompts[i] = PromptDTO{Name: p.Name, Title: p.Title, Description: p.Description, Arguments: args,
			Raw: toolObject(p.Raw)}
	}
	return out
}

// rawJSON passes a schema through, or null when it is missing or not
// valid JSON: one broken schema must not fail the whole response.
func rawJSON(b []byte) json.RawMessage {
	if len(b) == 0 || !json.Valid(b) {
		return nil
	}
	return json.RawMessage(b)
}

// MarshalJSON writes the tool as the server sent it plus riskTier, or
// from its fields when the server's object is not known.
func (t ToolDTO) MarshalJSON() ([]byte, error) {
	if t.Raw == nil {
		type fields ToolDTO // without this method
		return json.Marshal(fields(t))
	}
	tier, err := json.Marshal(t.RiskTier)
	if err != nil {
		return nil, err
	}
	obj := bytes.TrimSpace(t.Raw)
	body := bytes.TrimSpace(obj[1 : len(obj)-1])
	out := make([]byte, 0, len(obj)+len(tier)+16)
	out = append(out, '{')
	if len(body) > 0 {
		out = append(out, body...)
		out = append(out, ',')
	}
	out = append(out, `"riskTier":`...)
	out = append(out, tier...)
	if t.Policy != "" && t.Annotated != nil {
		extra, err := json.Marshal(struct {
			Policy    string `json:"policy"`
			Annotated bool   `json:"annotated"`
		}{t.Policy, *t.Annotated})
		if err != nil {
			return nil, err
		}
		out = append(out, ',')
		out = append(out, extra[1:len(extra)-1]...)
	}
	return append(out, '}'), nil
}

// toolObject passes a tool object through when it is a valid JSON object,
// and is nil otherwise, so that the tool is described from its fields.
func toolObject(b []byte) json.RawMessage {
	b = bytes.TrimSpace(b)
	if len(b) < 2 || b[0] != '{' || !json.Valid(b) {
		return nil
	}
	return json.RawMessage(b)
}

// MarshalJSON writes the resource as the server sent it, or from its
// fields when the server's object is not known.
func (r ResourceDTO) MarshalJSON() ([]byte, error) {
	if r.Raw != nil {
		return r.Raw, nil
	}
	type fields ResourceDTO // without this method
	return json.Marshal(fields(r))
}

// MarshalJSON writes the template as the server sent it, or from its
// fields when the server's object is not known.
func (r ResourceTemplateDTO) MarshalJSON() ([]byte, error) {
	if r.Raw != nil {
		return r.Raw, nil
	}
	type fields ResourceTemplateDTO // without this method
	return json.Marshal(fields(r))
}

// MarshalJSON writes the prompt as the server sent it, or from its fields
// when the server's object is not known.
func (p PromptDTO) MarshalJSON() ([]byte, error) {
	if p.Raw != nil {
		return p.Raw, nil
	}
	type fields PromptDTO // without this method
	return json.Marshal(fields(p))
}
