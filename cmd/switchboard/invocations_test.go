package main

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"net/http"
	"path/filepath"
	"testing"

	_ "modernc.org/sqlite" // read the audit log as an auditor would, with plain SQL

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/handlers"
)

// Every finished call leaves one audit row that matches it: scope, server,
// tool, the hash of its arguments, its times and outcome.
func TestAuditRowsMatchInvocations(t *testing.T) {
	data := t.TempDir()
	settings := writeSettings(t, map[string]any{"demo": demoServer()})
	p := launch(t, data, "--settings", settings)
	p.events("demo", isState("connected"))

	calls := []struct {
		tool string
		args string
		want string
	}{
		{"echo", `{"message": "audited", "z": 1}`, "success"},
		{"fail_always", `{}`, "error"},
	}
	ids := map[string]string{}
	for _, c := range calls {
		// The stream is open before the call starts, so its end is seen.
		var id string
		p.eventsOf("invocation", func() {
			req, _ := http.NewRequest(http.MethodPost, p.url+handlers.ToolCallPath("demo", c.tool), bytes.NewReader([]byte(c.args)))
			req.Header.Set("Content-Type", "application/json")
			resp, err := http.DefaultClient.Do(p.authorize(req))
			if err != nil {
				t.Fatal(err)
			}
			var inv struct{ ID, Status string }
			_ = json.NewDecoder(resp.Body).Decode(&inv)
			resp.Body.Close()
			if resp.StatusCode != http.StatusAccepted || inv.Status != "pending" {
				t.Fatalf("call %s: %d %s, want 202 pending", c.tool, resp.StatusCode, inv.Status)
			}
			id = inv.ID
		}, func(data []byte) bool {
			var inv struct{ ID, Status string }
			_ = json.Unmarshal(data, &inv)
			return inv.ID == id && (inv.Status == "success" || inv.Status == "error" || inv.Status == "cancelled")
		})
		ids[id] = c.tool
	}
	p.stop()

	db, err := sql.Open("sqlite", "file:"+filepath.Join(data, "switchboard.db")+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT a.user, a.workspace, a.invocation_id, a.server, a.tool, a.args_sha256, a.outcome,
			a.started_at = i.started_at AND a.ended_at = i.ended_at, i.arguments, i.status
		FROM audit_log a JOIN invocations i ON i.id = a.invocation_id AND i.user = a.user AND i.workspace = a.workspace
		ORDER BY a.seq`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var user, workspace, id, server, tool, hash, outcome, args, status string
		var sameTimes bool
		if err := rows.Scan(&user, &workspace, &id, &server, &tool, &hash, &outcome, &sameTimes, &args, &status); err != nil {
			t.Fatal(err)
		}
		c := calls[n]
		n++
		if user != domain.LocalUser || workspace != data || server != "demo" || tool != c.tool || ids[id] != c.tool {
			t.Errorf("audit row %d: %s/%s %s %s %s, want local/%s demo %s", n, user, workspace, id, server, tool, data, c.tool)
		}
		if want := domain.ArgumentsHash(json.RawMessage(c.args)); hash != want {
			t.Errorf("%s: audit hash %s, want %s (canonical arguments)", tool, hash, want)
		}
		if outcome != c.want || status != c.want || !sameTimes {
			t.Errorf("%s: outcome %s, invocation %s, same times %v; want %s, %s, true", tool, outcome, status, sameTimes, c.want, c.want)
		}
	}
	if n != len(calls) {
		t.Errorf("audit rows: %d, want %d", n, len(calls))
	}
}
