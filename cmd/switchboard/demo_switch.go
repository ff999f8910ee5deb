package main

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"sync/atomic"

	"github.com/switchboard-mcp/switchboard/domain"
)

// demoUntilFile loads the demo servers while path does not exist and the
// settings through load once it does. The demo ends at the first good
// load: a half-written first save keeps the demo running and says what is
// wrong, and a file deleted later is a settings error like any other, not
// a way back into the demo.
func demoUntilFile(path string, demo []domain.ServerConfig, load func(context.Context) (domain.LoadedConfig, error)) func(context.Context) (domain.LoadedConfig, error) {
	var over atomic.Bool
	return func(ctx context.Context) (domain.LoadedConfig, error) {
		if !over.Load() {
			if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
				return domain.LoadedConfig{Servers: demo, Demo: true}, nil
			}
		}
		loaded, err := load(ctx)
		if err == nil {
			over.Store(true)
		}
		return loaded, err
	}
}

// stopDemoWhenReplaced ends the demo's HTTP endpoint once the reloader has
// applied a settings file in its place, by which time the fleet has
// already let go of the demo servers.
func stopDemoWhenReplaced(ctx context.Context, r *domain.Reloader, d *demo, log *slog.Logger) {
	changed, stop := r.Subscribe()
	defer stop()
	for r.State().Demo {
		select {
		case <-ctx.Done():
			return
		case <-changed:
		}
	}
	log.Info("settings file created: the demo servers are stopped and the file's servers run")
	d.stop()
}
