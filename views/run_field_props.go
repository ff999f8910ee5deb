package views

import (
	"strconv"
	"strings"

	"github.com/a-h/templ"
)

// RunFieldProps is one argument's control.
type RunFieldProps struct {
	RunFieldSpec
	ID, HelpID, HintID, ErrorID string
	InputName                   string
	InputType                   string // text, email or url for strings
	Value                       string // what the control shows
	Checked                     bool   // a switch's state
	Options                     []RunOptionProps
	Hints                       []Message
	Errors                      []Message
	// ReadOnly draws the control for reading only, as a card's form view
	// of the arguments a call was sent: text stays selectable, choices
	// cannot change, and nothing carries the Run form's test ids.
	ReadOnly bool
}

// RunOptionProps is one value of an enum.
type RunOptionProps struct {
	ID       string
	Value    string // JSON text; empty for the "not set" choice of an optional enum
	Label    string // the value as it reads; empty for "not set"
	Selected bool
}

// Label is what the field is called: the schema's title, else the
// property name.
func (f RunFieldProps) Label() string { return firstNonEmpty(f.Title, f.Name) }

// DescribedBy names the help, hint and error elements the control is
// described by, in reading order.
func (f RunFieldProps) DescribedBy() string {
	var ids []string
	if f.Description != "" {
		ids = append(ids, f.HelpID)
	}
	if len(f.Hints) > 0 {
		ids = append(ids, f.HintID)
	}
	if len(f.Errors) > 0 {
		ids = append(ids, f.ErrorID)
	}
	return strings.Join(ids, " ")
}

// ControlAttrs are the ARIA attributes every control of the field
// carries: required, invalid and what describes it.
func (f RunFieldProps) ControlAttrs() templ.Attributes {
	a := templ.Attributes{}
	if f.Required {
		a["aria-required"] = "true"
	}
	if len(f.Errors) > 0 {
		a["aria-invalid"] = "true"
	}
	if d := f.DescribedBy(); d != "" {
		a["aria-describedby"] = d
	}
	if f.ReadOnly {
		switch f.Kind {
		case RunRadio, RunSwitch, RunSelect:
			a["disabled"] = true // on a radio group's fieldset, it disables every option
		default:
			a["readonly"] = true
		}
	}
	return a
}

// TestID is the data-testid of one of the field's parts, named for the
// Run form ("run-input"); a read-only field's are named for the card
// ("invocation-arg-input"), so one page can hold both without confusion.
func (f RunFieldProps) TestID(part string) string {
	if f.ReadOnly {
		return "invocation-arg" + strings.TrimPrefix(part, "run")
	}
	return part
}

// NumberAttrs are a number input's bounds, step and keyboard, each only
// when the schema gives it.
func (f RunFieldProps) NumberAttrs() templ.Attributes {
	a := templ.Attributes{"step": f.Step, "inputmode": "decimal"}
	if f.Kind == RunInteger {
		a["inputmode"] = "numeric"
	}
	if f.Step == "" {
		a["step"] = "any"
	}
	if f.Min != "" {
		a["min"] = f.Min
	}
	if f.Max != "" {
		a["max"] = f.Max
	}
	return a
}

func boolText(b bool) string { return strconv.FormatBool(b) }
