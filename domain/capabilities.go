package domain

// RiskTier summarizes a tool's annotations for people deciding whether to
// trust a call.
type RiskTier string

const (
	RiskLow    RiskTier = "low"
	RiskMedium RiskTier = "medium"
	RiskHigh   RiskTier = "high"
)

// Annotations are a tool's behaviour hints; nil means the server did not say.
type Annotations struct {
	Title           string
	ReadOnlyHint    *bool
	DestructiveHint *bool
	IdempotentHint  *bool
	OpenWorldHint   *bool
}

// Tool is one entry of tools/list.
type Tool struct {
	Name         string
	Title        string
	Description  string
	InputSchema  []byte // raw JSON
	OutputSchema []byte // raw JSON; nil when the tool declares none
	Annotations  Annotations
	IconURLs     []string
	// TaskSupport is the tool's execution.taskSupport: TaskSupportRequired
	// tools only run as tasks, TaskSupportOptional ones may; empty means
	// forbidden.
	TaskSupport string
	// Raw is the tool object exactly as the server listed it, unknown
	// fields, _meta and icons included, so the API and the gateway can
	// pass it on unchanged.
	Raw []byte
}

// Values of Tool.TaskSupport, as MCP spells them.
const (
	TaskSupportForbidden = "forbidden"
	TaskSupportOptional  = "optional"
	TaskSupportRequired  = "required"
)

// Risk derives the tier: read-only tools are low, destructive ones high and
// everything else medium. A tool claiming both is treated as read-only,
// since the read-only hint means it cannot modify anything.
func (t Tool) Risk() RiskTier {
	a := t.Annotations
	switch {
	case a.ReadOnlyHint != nil && *a.ReadOnlyHint:
		return RiskLow
	case a.DestructiveHint != nil && *a.DestructiveHint:
		return RiskHigh
	}
	return RiskMedium
}

// Resource is one entry of resources/list.
type Resource struct {
	URI         string
	Name        string
	Title       string
	Description string
	MIMEType    string
	Size        *int64
	Raw         []byte // the object as the server listed it
}

// ResourceTemplate is one entry of resources/templates/list.
type ResourceTemplate struct {
	URITemplate string
	Name        string
	Title       string
	Description string
	MIMEType    string
	Raw         []byte // the object as the server listed it
}

// PromptArgument is one argument a prompt accepts.
type PromptArgument struct {
	Name        string
	Description string
	Required    bool
}

// Prompt is one entry of prompts/list.
type Prompt struct {
	Name        string
	Title       string
	Description string
	Arguments   []PromptArgument
	Raw         []byte // the object as the server listed it
}

// Capabilities is everything a server lists. The supervisor keeps the last
// good copy so a disabled server's lists stay visible.
type Capabilities struct {
	Tools             []Tool
	Resources         []Resource
	ResourceTemplates []ResourceTemplate
	Prompts           []Prompt
}

// ListKind names one of the lists a server can announce as changed.
type ListKind string

const (
	ListTools             ListKind = "tools"
	ListResources         ListKind = "resources"
	ListResourceTemplates ListKind = "resourceTemplates"
	ListPrompts           ListKind = "prompts"
)
