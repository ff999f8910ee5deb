package sqlite

import (
	"strings"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// TestCallIndexesAreRead checks that every non-unique index on
// invocations and audit_log is chosen by the query planner for at least
// one of this package's queries: each index costs the writer a B-tree
// insert per call, so one that no query reads is pure cost
// (0014_drop_unused_call_indexes.sql). It also pins the plans of the
// listing filters, so that dropping an index does not turn a filtered
// page into a scan of the table.
func TestCallIndexesAreRead(t *testing.T) {
	db, err := Open(t.Context(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	plan := func(q string, args ...any) string {
		t.Helper()
		rows, err := db.read.QueryContext(t.Context(), "EXPLAIN QUERY PLAN "+q, args...)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		defer rows.Close()
		var steps []string
		for rows.Next() {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Fatal(err)
			}
			steps = append(steps, detail)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return strings.Join(steps, " | ")
	}

	scope := domain.Scope{User: "u", Workspace: "w"}
	var plans []string
	for _, f := range []domain.InvocationFilter{{}, {ServerName: "s"}, {Tool: "t"}, {Status: domain.InvocationError},
		{Source: "api"}, {Client: "c"}, {StartedFrom: time.UnixMilli(1)}} {
		where, args := filterWhere(scope, f)
		cond := strings.Join(where, " AND ")
		list := plan(`SELECT `+previewColumns+` FROM invocations WHERE `+cond+` ORDER BY started_at DESC, id DESC LIMIT 50`, args...)
		if !strings.Contains(list, "USING") || strings.Contains(list, "TEMP B-TREE FOR ORDER BY") {
			t.Errorf("listing with %+v: plan %q, want an index walked in order", f, list)
		}
		perMinute := plan(`SELECT started_at / 60000 AS minute, status, count(*) FROM invocations WHERE `+cond+
			` AND started_at >= 1 AND started_at < 2 GROUP BY minute, status ORDER BY minute`, args...)
		plans = append(plans, list, perMinute)
	}
	plans = append(plans,
		plan(`SELECT started_at, id, ended_at, status FROM invocations WHERE user = ? AND workspace = ? AND server = ?
			AND started_at >= ? AND ended_at IS NOT NULL AND status IN (?, ?) ORDER BY started_at DESC, id DESC LIMIT ?`,
			"u", "w", "s", 1, "success", "error", 3),
		plan(`SELECT DISTINCT owner FROM invocations WHERE `+unfinished),
		plan(`DELETE FROM invocations WHERE ended_at IS NOT NULL AND ended_at < ?`, 1),
		plan(`DELETE FROM audit_log WHERE ended_at < ?`, 1),
	)
	all := strings.Join(plans, " \n") + " "

	rows, err := db.read.QueryContext(t.Context(), `SELECT name FROM sqlite_master
		WHERE type = 'index' AND tbl_name IN ('invocations', 'audit_log') AND sql IS NOT NULL AND sql NOT LIKE 'CREATE UNIQUE%'`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		n++
		if !strings.Contains(all, "INDEX "+name+" ") {
			t.Errorf("index %s is read by none of the plans:\n%s", name, all)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("found no indexes on invocations and audit_log")
	}
}
