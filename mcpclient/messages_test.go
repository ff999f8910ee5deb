package mcpclient_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/mcpclient"
)

// TestLogMessagesEverything: logging/setLevel reaches server-everything,
// and its log messages reach Options.Messages named after the server.
func TestLogMessagesEverything(t *testing.T) {
	t.Parallel()
	got := make(chan domain.ServerNotification, 16)
	s := connect(t, mcpclient.New(mcpclient.Options{Notifications: func(m domain.ServerNotification) {
		select {
		case got <- m:
		default:
		}
	}}), everythingStdio(t), nil)
	if err := s.(domain.LogLeveler).SetLogLevel(t.Context(), "debug"); err != nil {
		t.Fatalf("set level: %v", err)
	}
	call(t, s, "toggle-simulated-logging", `{}`, nil)
	defer call(t, s, "toggle-simulated-logging", `{}`, nil)
	select {
	case m := <-got:
		var p struct {
			Level string `json:"level"`
			Data  string `json:"data"`
		}
		if err := json.Unmarshal(m.Params, &p); err != nil || m.Server != "everything" || p.Level == "" || p.Data == "" {
			t.Errorf("got %s from %q (%v), want a log message from everything", m.Params, m.Server, err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no log message arrived")
	}
}
