package domain

// Whether a person may run a tool now: the one place the rules live, so
// the dashboard's Run form and the JSON API refuse the same calls with the
// same errors.

// Runnable returns the tool a person asks to run on server, or why it
// cannot run now: the server is unknown (ErrNotFound), blocked
// (*BlockedError), disabled (*DisabledError), not connected
// (*NotReadyError, which is ErrNotConnected), or does not list the tool
// (*ToolNotFoundError). A person's call is refused before anything is
// recorded, since it could only fail; an AI client's call through the
// gateway waits for a reconnecting server instead (see Start).
func (s *Invocations) Runnable(server, tool string) (Tool, error) {
	st, err := s.opts.Catalog.Status(server)
	if err != nil {
		return Tool{}, err
	}
	if err := refusal(st); err != nil {
		return Tool{}, err
	}
	if st.State != StateConnected {
		return Tool{}, &NotReadyError{Server: server, Status: st}
	}
	return s.lookupTool(server, tool)
}

// lookupTool finds a tool among those the server lists now.
func (s *Invocations) lookupTool(server, name string) (Tool, error) {
	caps, err := s.opts.Catalog.Capabilities(server)
	if err != nil {
		return Tool{}, err
	}
	if t, ok := findTool(caps, name); ok {
		return t, nil
	}
	return Tool{}, &ToolNotFoundError{Server: server, Tool: name}
}
