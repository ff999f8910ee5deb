package views

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"strconv"

	"github.com/a-h/templ"

	"github.com/switchboard-mcp/switchboard/domain"
)

// Run form modes: the schema-driven fields or the raw JSON editor.
const (
	RunModeForm = "form"
	RunModeRaw  = "raw"
)

// RunArgPrefix starts the name of every posted field that carries an
// argument, so an argument called "mode" cannot collide with the form's
// own fields.
const RunArgPrefix = "arg."

// Names of the form's own posted fields beside mode and raw: the Send
// anyway button and the Run as a task box, each "true" when used.
const (
	RunSendAnywayName = "send_anyway"
	RunAsTaskName     = "as_task"
)

// RunFormProps is the dialog that calls one tool with arguments a person
// enters, through fields generated from its inputSchema or as raw JSON.
type RunFormProps struct {
	ID, TitleID         string
	Server, Tool, Title string // Title is the tool's title, empty when it has none
	Description         string
	Action              string // where the form posts
	Mode                string // RunModeForm or RunModeRaw: the tab shown
	TabFormID, TabRawID string
	PanelFormID         string
	PanelRawID          string
	RawID, RawErrorID   string
	SummaryID           string
	Fields              []RunFieldProps
	Raw                 string  // the raw JSON editor's text
	RawError            Message // why the raw JSON was refused; ID empty when it was not
	RawViolations       []Message
	Summary             []Message
	// SendAnyway offers to send the refused arguments as they are: the
	// refusal was the schema's, and the server may accept them.
	SendAnyway   bool
	SendAnywayID string // the note that explains the button
	// TaskOptional shows the Run as a task box (AsTask is its state);
	// TaskRequired says the tool always runs as one.
	TaskOptional, TaskRequired bool
	AsTask                     bool
	TaskBoxID                  string
	NoArguments                bool // the schema has no properties: the tool is called with {}
	RequiredNoteRequired       bool // some field is required, so the form explains the mark
	// StartedID is the call this form just started, whose card is shown
	// under it; empty before the first Run.
	StartedID string
}

// RunFormInput is everything NewRunFormProps decides from.
type RunFormInput struct {
	Server string
	Tool   domain.Tool
	Action string
	Mode   string
	// Values are what the person entered, per property name; nil shows the
	// schema's defaults. A switch is "true" when on.
	Values map[string]string
	// Raw is the raw editor's text; empty shows the values as JSON, except
	// on the Raw JSON tab, which always shows what the person typed.
	Raw           string
	RawError      Message
	RawViolations []Message // schema violations of the raw JSON, shown beside it
	SendAnyway    bool
	AsTask        bool                 // the Run as a task box was ticked
	FieldErrors   map[string][]Message // per property name
	Summary       []Message            // violations that belong to no field
}

// NewRunFormProps builds the run dialog for one tool.
func NewRunFormProps(in RunFormInput) RunFormProps {
	key := runKey(in.Server, in.Tool.Name)
	p := RunFormProps{
		ID: key, TitleID: key + "-title",
		Server: in.Server, Tool: in.Tool.Name, Description: in.Tool.Description,
		Title:  firstNonEmpty(in.Tool.Title, in.Tool.Annotations.Title),
		Action: in.Action, Mode: RunModeForm,
		TabFormID: key + "-tab-form", TabRawID: key + "-tab-raw",
		PanelFormID: key + "-panel-form", PanelRawID: key + "-panel-raw",
		RawID: key + "-raw", RawErrorID: key + "-raw-error", SummaryID: key + "-summary",
		RawError: in.RawError, RawViolations: in.RawViolations, Summary: in.Summary,
		SendAnyway: in.SendAnyway, SendAnywayID: key + "-anyway", TaskBoxID: key + "-task",
		TaskOptional: in.Tool.TaskSupport == domain.TaskSupportOptional,
		TaskRequired: in.Tool.TaskSupport == domain.TaskSupportRequired,
	}
	p.AsTask = p.TaskOptional && in.AsTask
	if p.Title == p.Tool {
		p.Title = ""
	}
	if in.Mode == RunModeRaw {
		p.Mode = RunModeRaw
	}
	specs := RunFieldsFromSchema(in.Tool.InputSchema)
	p.NoArguments = len(specs) == 0
	values := in.Values
	if values == nil {
		values = DefaultRunValues(specs)
	}
	for i, s := range specs {
		f := newRunField(key+"-f"+strconv.Itoa(i), s, values[s.Name])
		f.Errors = in.FieldErrors[s.Name]
		p.RequiredNoteRequired = p.RequiredNoteRequired || s.Required
		p.Fields = append(p.Fields, f)
	}
	p.Raw = in.Raw
	if p.Raw == "" && p.Mode != RunModeRaw {
		p.Raw = DefaultRunRaw(specs)
	}
	return p
}

// RawInvalid reports whether the raw JSON was refused, for its own
// syntax or for the schema.
func (p RunFormProps) RawInvalid() bool { return p.RawError.ID != "" || len(p.RawViolations) > 0 }

// RawAttrs mark the raw editor invalid and described by its errors when
// it was refused.
func (p RunFormProps) RawAttrs() templ.Attributes {
	if !p.RawInvalid() {
		return templ.Attributes{}
	}
	return templ.Attributes{"aria-invalid": "true", "aria-describedby": p.RawErrorID}
}

func newRunField(id string, s RunFieldSpec, value string) RunFieldProps {
	f := RunFieldProps{RunFieldSpec: s, ID: id, HelpID: id + "-help", HintID: id + "-hint", ErrorID: id + "-error",
		InputName: RunArgPrefix + s.Name, Value: value}
	switch s.Kind {
	case RunText:
		f.InputType = "text"
		switch s.Format {
		case "email":
			f.InputType = "email"
		case "uri", "url":
			f.InputType = "url"
		}
		if s.Format != "" {
			f.Hints = append(f.Hints, Message{ID: "RunHintFormat", Data: map[string]any{"Format": s.Format}})
		}
		if s.Pattern != "" {
			f.Hints = append(f.Hints, Message{ID: "RunHintPattern", Data: map[string]any{"Pattern": s.Pattern}})
		}
	case RunNumber, RunInteger:
		switch {
		case s.Min != "" && s.Max != "":
			f.Hints = append(f.Hints, Message{ID: "RunHintRange", Data: map[string]any{"Min": s.Min, "Max": s.Max}})
		case s.Min != "":
			f.Hints = append(f.Hints, Message{ID: "RunHintMin", Data: map[string]any{"Min": s.Min}})
		case s.Max != "":
			f.Hints = append(f.Hints, Message{ID: "RunHintMax", Data: map[string]any{"Max": s.Max}})
		}
	case RunSwitch:
		f.Checked = value == "true"
		// A switch always shows a value; its default reads from the box.
		return f
	case RunRadio, RunSelect:
		if !s.Required {
			f.Options = append(f.Options, RunOptionProps{ID: id + "-o", Selected: value == ""})
		}
		for j, e := range s.Enum {
			f.Options = append(f.Options, RunOptionProps{ID: id + "-o" + strconv.Itoa(j), Value: e,
				Label: EnumLabel(e), Selected: e == value})
		}
	}
	if s.HasDefault() {
		f.Hints = append(f.Hints, Message{ID: "RunHintDefault", Data: map[string]any{"Default": EnumLabel(s.Default)}})
	}
	return f
}

// DefaultRunValues are the controls' contents before the person types:
// each property's default, as its control shows it.
func DefaultRunValues(specs []RunFieldSpec) map[string]string {
	out := map[string]string{}
	for _, s := range specs {
		if !s.HasDefault() {
			continue
		}
		switch s.Kind {
		case RunText:
			var str string
			if json.Unmarshal([]byte(s.Default), &str) == nil {
				out[s.Name] = str
			}
		case RunSwitch:
			if s.Default == "true" {
				out[s.Name] = "true"
			}
		case RunJSON:
			out[s.Name] = string(domain.IndentJSON([]byte(s.Default), ""))
		default:
			out[s.Name] = s.Default
		}
	}
	return out
}

// DefaultRunRaw is the raw editor's text before the person types: an
// object of the defaults, in schema order.
func DefaultRunRaw(specs []RunFieldSpec) string {
	var b bytes.Buffer
	b.WriteString("{")
	n := 0
	for _, s := range specs {
		if !s.HasDefault() {
			continue
		}
		if n > 0 {
			b.WriteString(",")
		}
		name, _ := json.Marshal(s.Name)
		b.Write(name)
		b.WriteString(":")
		b.WriteString(s.Default)
		n++
	}
	b.WriteString("}")
	return string(domain.IndentJSON([]byte(b.String()), ""))
}

// runKey turns a (server, tool) pair into a token safe in an element id.
func runKey(server, tool string) string {
	return "run-" + ServerKey(server) + "-" + hex.EncodeToString([]byte(tool))
}

// RunStatusID is the id of a tool's confirmation region in the drawer,
// where a started call is announced.
func RunStatusID(server, tool string) string { return runKey(server, tool) + "-status" }

// tabIndex keeps only the selected tab in the tab order; arrow keys move
// between tabs.
func tabIndex(selected bool) string {
	if selected {
		return "0"
	}
	return "-1"
}

// RunStartedProps answers a run form that started its call: the form
// stays, filled as it was sent, with a slot under it where the call's
// live card lands (drawer.js moves it there from the event stream), and
// the tool's status region in the drawer says it started.
type RunStartedProps struct {
	StatusID     string
	Tool         string
	InvocationID string
	Form         RunFormProps
}
