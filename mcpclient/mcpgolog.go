package mcpclient

import (
	"context"
	"log/slog"
)

// mcpgoLogger returns the logger handed to mcp-go. Its records go out at
// debug level: what matters in them reaches the supervisor as a
// categorized error, which is logged once there, and the rest ("listening
// to server forever" on every HTTP connect) is noise at info.
func mcpgoLogger(log *slog.Logger) *slog.Logger {
	return slog.New(debugHandler{log.Handler()}).With("source", "mcp-go")
}

// debugHandler lowers every record to debug level.
type debugHandler struct{ slog.Handler }

func (h debugHandler) Enabled(ctx context.Context, _ slog.Level) bool {
	return h.Handler.Enabled(ctx, slog.LevelDebug)
}

func (h debugHandler) Handle(ctx context.Context, r slog.Record) error {
	r.Level = slog.LevelDebug
	return h.Handler.Handle(ctx, r)
}

func (h debugHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return debugHandler{h.Handler.WithAttrs(attrs)}
}

func (h debugHandler) WithGroup(name string) slog.Handler {
	return debugHandler{h.Handler.WithGroup(name)}
}
