package domain

import "fmt"

// ToolNotFoundError is a call to a tool the server does not offer. It
// names both, so a person or client sees at once which of the two is
// wrong; it is ErrToolNotFound (and so ErrNotFound) to errors.Is.
type ToolNotFoundError struct {
	Server string
	Tool   string
}

func (e *ToolNotFoundError) Error() string {
	return fmt.Sprintf("tool %q not found on server %q", e.Tool, e.Server)
}
func (e *ToolNotFoundError) Unwrap() error { return ErrToolNotFound }

// DisabledError is a call to a server a person or the supervisor
// disabled; it says who, and is ErrServerDisabled to errors.Is.
type DisabledError struct {
	Server string
	Reason DisabledReason
}

func (e *DisabledError) Error() string {
	if e.Reason == DisabledNone {
		return fmt.Sprintf("server %q is disabled", e.Server)
	}
	return fmt.Sprintf("server %q is disabled: %s", e.Server, e.Reason)
}
func (e *DisabledError) Unwrap() error { return ErrServerDisabled }

// refusal returns why a server in state st takes no calls: it is blocked
// by gating or approval, or disabled. A server that is only connecting or
// in error is not refused here: Runnable refuses a person's call to it
// with ErrNotConnected, and an AI client's call waits for it.
func refusal(st Status) error {
	switch {
	case st.BlockedReason != BlockedNone:
		return &BlockedError{Server: st.ServerName, Reason: st.BlockedReason}
	case st.State == StateDisabled:
		return &DisabledError{Server: st.ServerName, Reason: st.DisabledReason}
	}
	return nil
}
