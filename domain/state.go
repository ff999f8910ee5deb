package domain

// State is the coarse state a user sees on a server's chip.
type State string

const (
	StateConnecting State = "connecting"
	StateConnected  State = "connected"
	StateError      State = "error"
	StateDisabled   State = "disabled"
)

// Phase is the supervisor's finer truth behind a State.
type Phase string

const (
	PhaseConnecting Phase = "connecting"
	PhaseConnected  Phase = "connected"
	PhaseWaiting    Phase = "waiting"   // failed; a retry is scheduled
	PhaseExhausted  Phase = "exhausted" // failed; no automatic retry (permanent error, autoReconnect off, or auto-disabled)
	PhaseStopped    Phase = "stopped"   // disabled by a person
	PhaseDisposed   Phase = "disposed"  // removed or shut down; terminal
)

// DisabledReason says who disabled a server.
type DisabledReason string

const (
	DisabledNone   DisabledReason = ""
	DisabledManual DisabledReason = "manual"
	DisabledAuto   DisabledReason = "auto"
)

// Event is something that moves a server from one phase to another.
type Event string

const (
	EvConnect     Event = "connect"      // attach, enable, restart or a retry timer firing
	EvConnected   Event = "connected"    // handshake and capability load succeeded
	EvFail        Event = "fail"         // failure with a retry scheduled
	EvGiveUp      Event = "give-up"      // failure with no automatic retry
	EvAutoDisable Event = "auto-disable" // too many failures in the window
	EvDisable     Event = "disable"
	EvEnable      Event = "enable"
	EvDispose     Event = "dispose"
)

type transitionKey struct {
	from Phase
	ev   Event
}

// transitions is the whole state machine; anything not listed is refused.
// The empty phase is a server that has not been attached yet.
var transitions = map[transitionKey]Phase{
	{"", EvConnect}:                  PhaseConnecting,
	{"", EvDisable}:                  PhaseStopped,
	{PhaseConnecting, EvConnect}:     PhaseConnecting, // restart while connecting
	{PhaseConnected, EvConnect}:      PhaseConnecting, // restart
	{PhaseWaiting, EvConnect}:        PhaseConnecting, // retry timer or restart
	{PhaseExhausted, EvConnect}:      PhaseConnecting, // manual restart after a permanent error
	{PhaseConnecting, EvConnected}:   PhaseConnected,
	{PhaseConnecting, EvFail}:        PhaseWaiting,
	{PhaseConnected, EvFail}:         PhaseWaiting,
	{PhaseConnecting, EvGiveUp}:      PhaseExhausted,
	{PhaseConnected, EvGiveUp}:       PhaseExhausted,
	{PhaseConnecting, EvAutoDisable}: PhaseExhausted,
	{PhaseConnected, EvAutoDisable}:  PhaseExhausted,
	{PhaseWaiting, EvAutoDisable}:    PhaseExhausted, // a cut-off start turned out to be a crash
	{PhaseConnecting, EvDisable}:     PhaseStopped,
	{PhaseConnected, EvDisable}:      PhaseStopped,
	{PhaseWaiting, EvDisable}:        PhaseStopped,
	{PhaseExhausted, EvDisable}:      PhaseStopped,
	{PhaseStopped, EvDisable}:        PhaseStopped,
	{PhaseStopped, EvEnable}:         PhaseConnecting,
	{PhaseExhausted, EvEnable}:       PhaseConnecting,
	{"", EvDispose}:                  PhaseDisposed,
	{PhaseConnecting, EvDispose}:     PhaseDisposed,
	{PhaseConnected, EvDispose}:      PhaseDisposed,
	{PhaseWaiting, EvDispose}:        PhaseDisposed,
	{PhaseExhausted, EvDispose}:      PhaseDisposed,
	{PhaseStopped, EvDispose}:        PhaseDisposed,
}

// Next returns the phase that ev leads to from p, and reports whether the
// machine allows that transition at all.
func Next(p Phase, ev Event) (Phase, bool) {
	to, ok := transitions[transitionKey{p, ev}]
	return to, ok
}

// StateOf derives what the chip shows from the phase and the disabled
// reason, so the two can never disagree.
func StateOf(p Phase, reason DisabledReason) State {
	if reason != DisabledNone {
		return StateDisabled
	}
	switch p {
	case PhaseConnected:
		return StateConnected
	case PhaseConnecting:
		return StateConnecting
	case PhaseWaiting, PhaseExhausted:
		return StateError
	}
	return StateDisabled
}
