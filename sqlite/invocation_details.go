package sqlite

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// detailsJSON is how an invocation's defaults, mismatches and task state
// are stored: one JSON column, since they are only ever read with the row.
type detailsJSON struct {
	Defaults []string        `json:"defaults,omitempty"`
	Mismatch []violationJSON `json:"mismatch,omitempty"`
	Task     *taskJSON       `json:"task,omitempty"`
	Asks     []askJSON       `json:"asks,omitempty"`
	// NeededScopes are what a server refusing the call for lack of access
	// asked for (needs_more_access).
	NeededScopes []string `json:"neededScopes,omitempty"`
	// Output are the violations of the tool's outputSchema found when the
	// result arrived.
	Output []violationJSON `json:"output,omitempty"`
}

type askJSON struct {
	Method  string `json:"method"`
	AtMs    int64  `json:"atMs"`
	Outcome string `json:"outcome"`
	Detail  string `json:"detail,omitempty"`
}

type violationJSON struct {
	Pointer string `json:"pointer"`
	Message string `json:"message"`
	// Key and Data are the violation in words a page translates; rows
	// written before they existed have neither and read as a mismatch.
	Key  string          `json:"key,omitempty"`
	Data json.RawMessage `json:"data,omitempty"`
}

// newViolationJSON stores v. Its data are texts, whole numbers and lists
// of them (jsonschema's messages), which JSON keeps.
func newViolationJSON(v domain.Violation) violationJSON {
	out := violationJSON{Pointer: v.Pointer, Message: v.Message, Key: v.Key}
	if len(v.Data) > 0 {
		if b, err := json.Marshal(v.Data); err == nil {
			out.Data = b
		}
	}
	return out
}

// violation reads a stored violation back. Numbers come back as whole
// numbers where they are whole: plural forms are chosen by an integer
// count, and JSON would otherwise give float64.
func (v violationJSON) violation() domain.Violation {
	out := domain.Violation{Pointer: v.Pointer, Message: v.Message, Key: v.Key}
	if len(v.Data) == 0 {
		return out
	}
	dec := json.NewDecoder(bytes.NewReader(v.Data))
	dec.UseNumber()
	var data map[string]any
	if dec.Decode(&data) != nil {
		out.Key = "" // unreadable values: say only that it does not match
		return out
	}
	for k, val := range data {
		if n, ok := val.(json.Number); ok {
			if i, err := n.Int64(); err == nil {
				data[k] = i
			} else if f, err := n.Float64(); err == nil {
				data[k] = f
			}
		}
	}
	out.Data = data
	return out
}

type taskJSON struct {
	ID             string `json:"id"`
	Status         string `json:"status"`
	StatusMessage  string `json:"statusMessage,omitempty"`
	PollIntervalMs int64  `json:"pollIntervalMs,omitempty"`
	UpdatedAtMs    int64  `json:"updatedAtMs,omitempty"`
}

// encodeDetails returns the column's value: NULL when there is nothing to
// keep.
func encodeDetails(inv domain.Invocation) (any, error) {
	if len(inv.Defaults) == 0 && len(inv.Mismatch) == 0 && inv.Task == nil && len(inv.Asks) == 0 && len(inv.NeededScopes) == 0 &&
		len(inv.OutputViolations) == 0 {
		return nil, nil
	}
	d := detailsJSON{Defaults: inv.Defaults, NeededScopes: inv.NeededScopes}
	for _, v := range inv.Mismatch {
		d.Mismatch = append(d.Mismatch, newViolationJSON(v))
	}
	for _, v := range inv.OutputViolations {
		d.Output = append(d.Output, newViolationJSON(v))
	}
	if t := inv.Task; t != nil {
		d.Task = &taskJSON{ID: t.ID, Status: t.Status, StatusMessage: t.StatusMessage,
			PollIntervalMs: t.PollInterval.Milliseconds()}
		if !t.UpdatedAt.IsZero() {
			d.Task.UpdatedAtMs = t.UpdatedAt.UnixMilli()
		}
	}
	for _, a := range inv.Asks {
		d.Asks = append(d.Asks, askJSON{Method: a.Method, AtMs: a.At.UnixMilli(), Outcome: a.Outcome, Detail: a.Detail})
	}
	b, err := json.Marshal(d)
	if err != nil {
		return nil, fmt.Errorf("details: %w", err)
	}
	return string(b), nil
}

// decodeDetails fills inv from the stored column.
func decodeDetails(raw string, inv *domain.Invocation) error {
	var d detailsJSON
	if err := json.Unmarshal([]byte(raw), &d); err != nil {
		return fmt.Errorf("details: %w", err)
	}
	inv.Defaults = d.Defaults
	inv.NeededScopes = d.NeededScopes
	for _, v := range d.Mismatch {
		inv.Mismatch = append(inv.Mismatch, v.violation())
	}
	for _, v := range d.Output {
		inv.OutputViolations = append(inv.OutputViolations, v.violation())
	}
	if t := d.Task; t != nil {
		inv.Task = &domain.TaskState{ID: t.ID, Status: t.Status, StatusMessage: t.StatusMessage,
			PollInterval: time.Duration(t.PollIntervalMs) * time.Millisecond}
		if t.UpdatedAtMs != 0 {
			inv.Task.UpdatedAt = time.UnixMilli(t.UpdatedAtMs)
		}
	}
	for _, a := range d.Asks {
		inv.Asks = append(inv.Asks, domain.AskRecord{Method: a.Method, At: time.UnixMilli(a.AtMs), Outcome: a.Outcome, Detail: a.Detail})
	}
	return nil
}
