package domain

// What readers outside the loop may see of a supervisor, under its mutex.

func (s *supervisor) setCaps(c Capabilities) {
	s.mu.Lock()
	s.caps = c
	s.mu.Unlock()
	s.st.ToolCount = len(c.Tools)
	s.st.ResourceCount = len(c.Resources)
	s.st.PromptCount = len(c.Prompts)
}

func (s *supervisor) capabilities() Capabilities {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.caps
}

func (s *supervisor) liveSession() Session {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.live
}

func (s *supervisor) config() ServerConfig {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cfg
}

func (s *supervisor) fileConfig() ServerConfig {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.fileCfg
}
