package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/settingsfile"
)

// pruneInterval is how often expired tool calls and server history are
// deleted.
const pruneInterval = time.Hour

// prune deletes tool calls, audit rows and servers' state changes and
// probe samples older than retention, at start and then every
// pruneInterval, until ctx ends. Zero retention keeps all.
func prune(ctx context.Context, inv *domain.Invocations, hist *domain.History, retention time.Duration, log *slog.Logger, done chan<- struct{}) {
	defer close(done)
	if retention <= 0 {
		return
	}
	t := time.NewTicker(pruneInterval)
	defer t.Stop()
	for {
		if n, err := inv.Prune(ctx, retention); err != nil && ctx.Err() == nil {
			log.Warn("prune tool call history", "error", err)
		} else if n > 0 {
			log.Info("pruned tool call history", "rows", n, "retention", retention.String())
		}
		if n, err := hist.Prune(ctx, retention); err != nil && ctx.Err() == nil {
			log.Warn("prune server history", "error", err)
		} else if n > 0 {
			log.Info("pruned server history", "rows", n, "retention", retention.String())
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// projectFiles are the project's settings, gated behind approval.
func projectFiles(project string) []string {
	return []string{filepath.Join(project, ".mcp.json"), filepath.Join(project, ".switchboard", "settings.json")}
}

// loadSettings reads the user's settings file and the project's, for a
// reload, and hands what it read to domain.MergeSettings, which holds the
// rules: the user's entry wins a name clash, the start-up allow-list in
// bound caps the user file's gate, and unapproved project servers wait.
func loadSettings(path, project string, getenv func(string) string, bound domain.Gate, approvals domain.ApprovalStore) func(context.Context) (domain.LoadedConfig, error) {
	return func(ctx context.Context) (domain.LoadedConfig, error) {
		set, err := settingsfile.Load(path, getenv)
		if err != nil {
			return domain.LoadedConfig{}, fileProblem(path, err)
		}
		in := domain.MergeInput{
			User:       set,
			HomeDir:    userHome(getenv),
			ProjectDir: project,
			UpperBound: bound,
			Approvals:  approvals,
			Resolve:    settingsfile.ResolvePath,
		}
		for _, pp := range projectFiles(project) {
			pset, err := settingsfile.Load(pp, getenv)
			switch {
			case errors.Is(err, fs.ErrNotExist):
				continue
			case err != nil:
				in.Projects = append(in.Projects, domain.ProjectSettings{Path: pp, Unreadable: fileProblem(pp, err)})
			default:
				in.Projects = append(in.Projects, domain.ProjectSettings{Path: pp, Servers: pset.Servers, Problems: pset.Problems})
			}
		}
		return domain.MergeSettings(ctx, in)
	}
}

// sources is where the servers came from.
type sources struct {
	path        string // the settings file; empty in demo mode
	missingPath string // in demo mode: the default settings path that did not exist
	servers     []domain.ServerConfig
	demo        *demo
}

// settingsPath is the settings file the reloader follows: the one read,
// or in a demo started for want of it, the one it waits for. It is empty
// when --demo forced the demo.
func (s sources) settingsPath() string {
	if s.path != "" {
		return s.path
	}
	return s.missingPath
}

// loadSources reads the settings file, or falls back to the built-in demo
// when there is none at the default path (or --demo asks for it).
func loadSources(ctx context.Context, cfg serveConfig, getenv func(string) string, log *slog.Logger) (sources, error) {
	path := cfg.settings
	if !cfg.demo && path == "" {
		p, err := settingsfile.DefaultPath(getenv)
		if err != nil {
			return sources{}, err
		}
		path = p
	}
	if !cfg.demo {
		set, err := settingsfile.Load(path, getenv)
		switch {
		case err == nil:
			for _, p := range set.Problems {
				log.Warn("skipping a bad server entry", "error", p)
			}
			log.Info("loaded settings", "path", path, "servers", len(set.Servers))
			return sources{path: path, servers: set.Servers}, nil
		case errors.Is(err, fs.ErrNotExist) && !cfg.settingsExplicit:
			log.Info("no settings file: running the built-in demo servers; create one to supervise your own", "path", path)
		default:
			return sources{}, fmt.Errorf("settings: %w", err)
		}
	} else {
		log.Info("demo mode: running the built-in demo servers")
	}
	d, err := startDemo(ctx, log)
	if err != nil {
		return sources{}, err
	}
	// The demo's stdio servers run in the user's home like any user
	// server without cwd, never where Switchboard was started.
	src := sources{servers: domain.WithBaseDir(d.servers, userHome(getenv)), demo: d}
	if !cfg.demo {
		src.missingPath = path
	}
	return src, nil
}
