package domain

// A person's commands to a supervisor: what they are, how they reach the
// loop, and how the loop applies them.

import (
	"context"
	"fmt"
	"time"
)

type commandKind int

const (
	cmdRestart commandKind = iota
	cmdDisable
	cmdEnable
	cmdDispose
	cmdSettings
	cmdReconfigure
)

type command struct {
	kind     commandKind
	settings SettingsOverride // for cmdSettings
	config   ServerConfig     // for cmdReconfigure
	reply    chan commandReply
}

type commandReply struct {
	status Status
	err    error
}

// handle applies a person's command and reports whether the loop must end.
func (s *supervisor) handle(c command) bool {
	var err error
	switch c.kind {
	case cmdRestart:
		if s.st.DisabledReason != DisabledNone {
			err = fmt.Errorf("restart %s: %w", s.st.ServerName, ErrServerDisabled)
			break
		}
		s.opts.Log.Info("server restart requested", "server", s.st.ServerName)
		s.resetFailures()
		s.connect(EvConnect)
	case cmdDisable:
		s.disable(DisabledManual)
	case cmdEnable:
		if s.st.DisabledReason == DisabledNone {
			break // already enabled: nothing to do
		}
		s.st.DisabledReason = DisabledNone
		s.stateSet = true
		s.persist()
		s.resetFailures()
		s.connect(EvEnable)
	case cmdSettings:
		s.applySettings(c.settings)
	case cmdReconfigure:
		s.reconfigure(c.config)
	case cmdDispose:
		s.stopAll()
		s.transition(EvDispose)
		s.publish()
		close(s.quit)
		c.reply <- commandReply{status: s.st}
		return true
	}
	c.reply <- commandReply{status: s.st, err: err}
	return false
}

func (s *supervisor) disable(reason DisabledReason) {
	s.stopAll()
	s.transition(EvDisable)
	s.st.DisabledReason = reason
	s.stateSet = true
	s.st.clearError()
	s.st.ConnectedAt = time.Time{}
	s.st.HasLatency = false
	s.resetFailures()
	s.persist()
	s.publish()
	s.opts.Log.Info("server disabled", "server", s.st.ServerName, "reason", string(reason))
}

// applySettings takes a person's new settings: they are stored, and a
// changed keep-alive interval is re-armed at once, with no reconnect.
func (s *supervisor) applySettings(o SettingsOverride) {
	s.overrides = s.overrides.merge(o)
	s.mu.Lock()
	s.cfg = s.overrides.apply(s.fileCfg)
	cfg := s.cfg
	s.mu.Unlock()
	s.st.AutoReconnect, s.st.KeepAlive = cfg.AutoReconnect, cfg.KeepAlive
	if s.probe != nil {
		s.probe.Stop()
		s.probe = nil
	}
	if !s.probing {
		s.armProbe()
	}
	s.persist()
	s.publish()
	s.opts.Log.Info("server settings changed", "server", s.st.ServerName,
		"auto_reconnect", cfg.AutoReconnect, "keep_alive", cfg.KeepAlive.String())
}

// reconfigure takes a new settings-file entry whose connection is the same
// (same Fingerprint): only Switchboard's own keys changed, so they apply
// in place. A changed "disabled" applies unless a person chose the state.
func (s *supervisor) reconfigure(cfg ServerConfig) {
	s.mu.Lock()
	wasDisabled := s.fileCfg.Disabled
	s.fileCfg = cfg
	s.mu.Unlock()
	s.applySettings(SettingsOverride{})
	s.st.Source = cfg.Source
	if !s.stateSet && cfg.Disabled != wasDisabled {
		if cfg.Disabled {
			s.disable(DisabledManual)
			s.stateSet = false // still the file's choice
			s.persist()
		} else if s.st.DisabledReason != DisabledNone {
			s.st.DisabledReason = DisabledNone
			s.resetFailures()
			s.connect(EvEnable)
		}
	}
}

// send delivers a command and waits for the loop's answer.
func (s *supervisor) send(ctx context.Context, kind commandKind) (Status, error) {
	return s.sendCommand(ctx, command{kind: kind})
}

func (s *supervisor) sendCommand(ctx context.Context, c command) (Status, error) {
	c.reply = make(chan commandReply, 1)
	select {
	case s.cmds <- c:
	case <-s.quit:
		return Status{}, ErrClosed
	case <-ctx.Done():
		return Status{}, ctx.Err()
	}
	r := <-c.reply
	return r.status, r.err
}
