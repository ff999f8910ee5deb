package main

import (
	"context"
	"log/slog"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/sqlite"
)

// recoverFromStop runs once at start, before any call: it warns about
// data files that were readable by others (the database has narrowed
// them, but what they held may already have been read), and ends the
// calls an earlier process left running when it was killed. A failure to
// recover is logged, not fatal: the dashboard is more use running with a
// few stale cards than not running.
func recoverFromStop(ctx context.Context, db *sqlite.DB, invocations *domain.Invocations, log *slog.Logger) {
	for _, c := range db.PermissionChanges() {
		log.Warn("data was readable by other users; made it private", "path", c.Path,
			"mode_was", c.From.String(), "mode_now", c.To.String())
	}
	if err := db.SweepError(); err != nil {
		log.Warn("could not clean up lock files of earlier runs; their calls are left alone", "error", err)
	}
	ended, err := invocations.Recover(ctx)
	if err != nil {
		log.Error("end tool calls interrupted by an earlier stop", "error", err)
		return
	}
	if len(ended) > 0 {
		log.Warn("ended tool calls interrupted by an earlier stop", "calls", len(ended))
	}
}
