package demoserver

import (
	"context"
	"fmt"
	"slices"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// logLevels are the levels log_message offers, least severe first.
var logLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// addLogTools registers log_message, the tool that makes the server send
// its client a log message (notifications/message) on demand, so a client
// can show where log messages go and how the level it asked for filters
// them.
func addLogTools(s *server.MCPServer) {
	s.AddTool(newTool("log_message", "Send a log message",
		"Sends the client a log message (notifications/message) at the given level, unless the client asked for a more severe level (logging/setLevel, error until it asks; on 2026-07-28 the level in the request's _meta, none unless it asks). Reports whether the message was sent.",
		readOnlyLocal,
		mcp.WithString("message", mcp.Required(), mcp.Description("The log message's text.")),
		mcp.WithString("level", mcp.Enum(logLevels...), mcp.DefaultString("warning"), mcp.Description("The message's level.")),
		mcp.WithString("logger", mcp.DefaultString("demo"), mcp.Description("The name of the logger that sends it."))),
		logMessage)
}

// logMessage sends one log message through the calling session, which
// drops it when it is below the level the client asked for.
func logMessage(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	srv := server.ServerFromContext(ctx)
	if srv == nil {
		return nil, errNoServer
	}
	msg, err := req.RequireString("message")
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	level := mcp.LoggingLevel(req.GetString("level", "warning"))
	logger := req.GetString("logger", "demo")
	if !slices.Contains(logLevels, string(level)) {
		return mcp.NewToolResultErrorf("level must be one of %v, got %q", logLevels, level), nil
	}
	if asked := askedLevel(ctx); asked == "" {
		return mcp.NewToolResultText("Not sent: this request asked for no log messages."), nil
	} else if !level.ShouldSendTo(asked) {
		return mcp.NewToolResultText(fmt.Sprintf("Not sent: the client asked for %s and above, and this message is %s.", asked, level)), nil
	}
	if err := srv.SendLogMessageToClient(ctx, mcp.NewLoggingMessageNotification(level, logger, msg)); err != nil {
		return mcp.NewToolResultErrorf("the log message could not be sent: %v", err), nil
	}
	return mcp.NewToolResultText(fmt.Sprintf("Sent a %s log message from %s.", level, logger)), nil
}

// askedLevel is the least severe level the client wants: on 2026-07-28 the
// one the request carries in its _meta ("" for none), before that the one
// the session set with logging/setLevel.
func askedLevel(ctx context.Context) mcp.LoggingLevel {
	if info := server.RequestProtocolInfoFromContext(ctx); info != nil && info.Modern {
		return info.LogLevel
	}
	if s, ok := server.ClientSessionFromContext(ctx).(server.SessionWithLogging); ok {
		return s.GetLogLevel()
	}
	return mcp.LoggingLevelError
}
