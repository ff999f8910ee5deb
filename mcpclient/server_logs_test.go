package mcpclient_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/mcpclient"
)

// oneSession asks one session for levels, whatever the server's name.
type oneSession struct{ s domain.Session }

func (o *oneSession) SetLogLevel(ctx context.Context, _, level string) error {
	return o.s.(domain.LogLeveler).SetLogLevel(ctx, level)
}

// The demo server's log messages reach domain.ServerLogs through
// Options.Notifications, and the level a person picks there filters them
// at the server, over stdio and streamable HTTP.
func TestServerLogsFromTheDemoServer(t *testing.T) {
	t.Parallel()
	_, url := startDemoRemote(t, "http", "127.0.0.1:0")
	httpCfg := remote(domain.TransportHTTP, url)
	httpCfg.Name = "demo"
	for _, tt := range []struct {
		name    string
		cfg     domain.ServerConfig
		version string // Options.ProtocolVersion
	}{
		{"stdio", demoStdioNamed(), mcp.LATEST_LEGACY_PROTOCOL_VERSION},
		{"http-2025", httpCfg, mcp.LATEST_LEGACY_PROTOCOL_VERSION},
		{"http-2026", httpCfg, mcp.LATEST_PROTOCOL_VERSION}, // the level rides in each request's _meta
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			via := &oneSession{}
			logs := domain.NewServerLogs(domain.ServerLogsOptions{Levels: via})
			arrived, stop := logs.Subscribe()
			defer stop()
			s := connect(t, mcpclient.New(mcpclient.Options{Notifications: logs.Add, ProtocolVersion: tt.version}), tt.cfg, nil)
			if got := s.ProtocolVersion(); got != tt.version {
				t.Fatalf("connected with %s, want %s", got, tt.version)
			}
			via.s = s

			if err := logs.SetLevel(connectCtx(t), "demo", "info"); err != nil {
				t.Fatalf("set level info: %v", err)
			}
			// mcp-go's server can drop a notification its tool sends just
			// before the result on a 2026-07-28 response stream (its
			// forwarder takes the message, then finds the request done), so
			// the call is made again, a few times at most, until one arrives.
			for try := 1; logs.Seq("demo") == 0; try++ {
				r := call(t, s, "log_message", `{"message":"cache <warm>","level":"notice","logger":"cache"}`, nil)
				if text := firstText(r); !strings.HasPrefix(text, "Sent") {
					t.Fatalf("log_message at info: %q, want sent", text)
				}
				select {
				case <-arrived:
				case <-time.After(5 * time.Second):
					if try == 5 {
						t.Fatal("no log message arrived")
					}
				}
			}
			got := logs.Entries("demo")
			if len(got) == 0 || got[0].Level != "notice" || got[0].Logger != "cache" || got[0].Text != "cache <warm>" {
				t.Errorf("got %+v, want a notice from cache", got)
			}

			if err := logs.SetLevel(connectCtx(t), "demo", "error"); err != nil {
				t.Fatalf("set level error: %v", err)
			}
			r := call(t, s, "log_message", `{"message":"quiet","level":"notice"}`, nil)
			if text := firstText(r); !strings.HasPrefix(text, "Not sent") {
				t.Errorf("log_message at error: %q, want held back by the server", text)
			}
		})
	}
}

func firstText(r callResult) string {
	if len(r.Content) == 0 {
		return ""
	}
	s, _ := r.Content[0]["text"].(string)
	return s
}
