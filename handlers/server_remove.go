package handlers

import (
	"context"
	"log/slog"

	"github.com/switchboard-mcp/switchboard/domain"
)

// removeServer removes a server for a person and logs it once: Remove
// deletes the entry from a settings file the person owns, so the log must
// say which entry left which file, and through which door (the dashboard
// or the API). A failure is not logged here; the error renderer, the edge
// of every failed request, does that.
func removeServer(ctx context.Context, fleet *domain.Fleet, log *slog.Logger, scope domain.Scope, name, via string) error {
	var source string
	if st, err := fleet.Status(name); err == nil {
		source = st.Source
	}
	// Removal edits the settings file before it stops the server; a client
	// hanging up in between must not leave the server half removed.
	ctx = context.WithoutCancel(ctx)
	if err := fleet.Remove(ctx, name); err != nil {
		return err
	}
	log.LogAttrs(ctx, slog.LevelInfo, "server removed",
		slog.String("server", name), slog.String("source", source),
		slog.String("user", scope.User), slog.String("workspace", scope.Workspace), slog.String("via", via))
	return nil
}
