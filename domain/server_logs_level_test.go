package domain_test

import (
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
)

func TestServerLogsLevelsCombine(t *testing.T) {
	set := &levelCalls{}
	logs := domain.NewServerLogs(domain.ServerLogsOptions{Levels: set, Burst: -1})
	ctx := t.Context()
	if err := logs.SetLevel(ctx, "a", "warning"); err != nil {
		t.Fatal(err)
	}
	if err := logs.SetClientLevel(ctx, "a", "gateway", "debug"); err != nil {
		t.Fatal(err)
	}
	if got := logs.UpstreamLevel("a"); got != "debug" {
		t.Errorf("got upstream %q with a client at debug, want debug", got)
	}
	if got := logs.Level("a"); got != "warning" {
		t.Errorf("got drawer level %q, want warning still", got)
	}
	// The server now sends debug for the client; the drawer keeps only
	// what it asked for.
	logs.Add(logNote("a", `{"level":"debug","data":"chatter"}`))
	logs.Add(logNote("a", `{"level":"info","data":"more chatter"}`))
	logs.Add(logNote("a", `{"level":"error","data":"broken"}`))
	logs.Add(logNote("a", `{"level":"odd","data":"unknown severity"}`))
	var kept []string
	for _, e := range logs.Entries("a") {
		kept = append(kept, e.Level)
	}
	if strings.Join(kept, ",") != "error,odd" {
		t.Errorf("got drawer entries %v, want error and the unknown level only", kept)
	}
	// The drawer picking error keeps the client's debug upstream.
	if err := logs.SetLevel(ctx, "a", "error"); err != nil {
		t.Fatal(err)
	}
	if got := logs.UpstreamLevel("a"); got != "debug" {
		t.Errorf("got upstream %q after the drawer picked error, want the client's debug", got)
	}
	// The client goes: back to the drawer's level.
	if err := logs.SetClientLevel(ctx, "a", "gateway", ""); err != nil {
		t.Fatal(err)
	}
	if got := logs.UpstreamLevel("a"); got != "error" {
		t.Errorf("got upstream %q after the client left, want the drawer's error", got)
	}
	want := "a=warning,a=debug,a=debug,a=error"
	if got := strings.Join(set.calls, ","); got != want {
		t.Errorf("got calls %s, want %s", got, want)
	}
}

func TestServerLogsClientLevelsSendOnlyChanges(t *testing.T) {
	set := &levelCalls{}
	logs := domain.NewServerLogs(domain.ServerLogsOptions{Levels: set, Burst: -1})
	ctx := t.Context()
	steps := []struct {
		client, level, upstream string
	}{
		{"one", "info", "info"},
		{"two", "warning", "info"}, // less detailed: nothing to send
		{"two", "debug", "debug"},  // more detailed: sent
		{"two", "", "info"},        // gone: back to one's info
		{"one", "", "info"},        // nobody asks: the server keeps its last level
		{"one", "loud", "info"},    // refused below
	}
	for _, s := range steps {
		err := logs.SetClientLevel(ctx, "a", s.client, s.level)
		if s.level == "loud" {
			if err == nil {
				t.Error("got no error for an unknown level")
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s=%q: %v", s.client, s.level, err)
		}
		if got := logs.UpstreamLevel("a"); got != s.upstream {
			t.Errorf("%s=%q: got upstream %q, want %q", s.client, s.level, got, s.upstream)
		}
	}
	if got := strings.Join(set.calls, ","); got != "a=info,a=debug,a=info" {
		t.Errorf("got calls %s, want a=info,a=debug,a=info", got)
	}
	if got := logs.Level("a"); got != "" {
		t.Errorf("got drawer level %q, want none: clients do not pick the drawer's", got)
	}
}
