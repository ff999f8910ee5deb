package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
)

// untilStopped waits until ctx ends or the HTTP server stops by itself,
// which it does only when its listener fails. Switchboard is no use
// without its port, so that stop is an error: serve shuts the rest down in
// order and returns it, and main prints it once and exits non-zero.
func untilStopped(ctx context.Context, served <-chan error, log *slog.Logger) error {
	select {
	case <-ctx.Done():
		log.Info("shutting down")
		return nil
	case err := <-served:
		if errors.Is(err, http.ErrServerClosed) {
			return nil // only Shutdown closes it, and that comes after this wait
		}
		return fmt.Errorf("http server stopped: %w", err)
	}
}
