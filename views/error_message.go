package views

import (
	"strconv"

	"github.com/switchboard-mcp/switchboard/domain"
)

// errorMessage puts a snapshot's error into the page's language where the
// domain says what it means: a kill by a signal, or an attempt cut off by
// its limit, naming the setting that gives the limit. Nil means the
// error's own text is shown as it is.
func errorMessage(s domain.Status) *Message {
	switch {
	case s.Signal != "":
		return &Message{ID: "ErrKilledBySignal", Data: map[string]any{"Signal": s.Signal}}
	case s.TimeoutSetting != "":
		return &Message{ID: "ErrAttemptTimeout", Data: map[string]any{
			"Seconds": strconv.FormatFloat(s.TimeoutLimit.Seconds(), 'f', -1, 64), "Setting": s.TimeoutSetting}}
	}
	return nil
}
