package sqlite

import (
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
		d.Mismatch = append(d.Mismatch, violationJSON{Pointer: v.Pointer, Message: v.Message})
	}
	for _, v := range inv.OutputViolations {
		d.Output = append(d.Output, violationJSON{Pointer: v.Pointer, Message: v.Message})
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
		inv.Mismatch = append(inv.Mismatch, domain.Violation{Pointer: v.Pointer, Message: v.Message})
	}
	for _, v := range d.Output {
		inv.OutputViolations = append(inv.OutputViolations, domain.Violation{Pointer: v.Pointer, Message: v.Message})
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
