package mcpserver_test

import (
	"strings"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
	"github.com/switchboard-mcp/switchboard/mcpserver"
)

// Right after a start, a client's call to a tool of a server that is
// still making its first connection waits for it and then runs, instead
// of finding no such tool.
func TestCallWaitsForAServersFirstConnection(t *testing.T) {
	f := newFixture(t)
	cfg := domain.ServerConfig{Name: "alpha", Transport: domain.TransportStdio, Command: "true", AutoReconnect: true, ConnectTimeout: time.Minute}
	if err := f.fleet.Attach(t.Context(), []domain.ServerConfig{cfg}); err != nil {
		t.Fatal(err)
	}
	attempt := f.conn.Next(t) // the first connection, not answered yet
	c := f.dial(t, "/mcp", true)
	type outcome struct {
		text  string
		isErr bool
		err   error
	}
	out := make(chan outcome, 1)
	go func() {
		text, isErr, err := callTextAsync(c, "alpha__echo", map[string]any{"message": "early"})
		out <- outcome{text, isErr, err}
	}()
	waitFor(t, func() bool { return mcpserver.WaitingCalls(f.gateway) == 1 })

	sess := domaintest.NewSession(echoCaps("alpha"))
	sess.OnCall(echoing("alpha"))
	attempt.Succeed(sess)
	waitFor(t, func() bool {
		st, err := f.fleet.Status("alpha")
		return err == nil && st.State == domain.StateConnected
	})
	f.gateway.Refresh()
	select {
	case o := <-out:
		if o.err != nil || o.isErr || !strings.Contains(o.text, "alpha:echo:early") {
			t.Errorf("got %q (error result %v, err %v), want the echo once alpha connected", o.text, o.isErr, o.err)
		}
	case <-time.After(patience):
		t.Fatal("the call did not run once the server connected")
	}
}
