package main

import (
	"context"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/sqlite"
)

// The demo's servers' state changes are recorded, kept across a restart,
// and end with the shutdown that disposed of them.
func TestDemoHistorySurvivesRestart(t *testing.T) {
	data := t.TempDir()
	for range 2 {
		p := launch(t, data, "--demo")
		p.events("demo-stdio", isState("connected"))
		p.stop()
	}
	db, err := sqlite.Open(context.Background(), data)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	changes, err := db.HistoryStore().StateChanges(context.Background(), domain.Scope{User: domain.LocalUser, Workspace: data}, "demo-stdio", time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	var got []domain.Phase
	for _, c := range changes {
		got = append(got, c.Phase)
	}
	runs := 0
	for i, p := range got {
		if p == domain.PhaseConnected && i > 0 && got[i-1] == domain.PhaseConnecting {
			runs++
		}
	}
	if runs != 2 || len(got) == 0 || got[len(got)-1] != domain.PhaseDisposed {
		t.Errorf("demo-stdio's recorded phases: %v, want connecting then connected in each of 2 runs, ending disposed", got)
	}
}
