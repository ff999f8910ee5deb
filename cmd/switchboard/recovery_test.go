package main

import (
	"bufio"
	"bytes"
	"database/sql"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite" // read the database as an auditor would, with plain SQL

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/handlers"
	"github.com/switchboard-mcp/switchboard/sqlite"
)

// recoveryToken is the access token the instances of this test run with;
// the API requires one (sent on every request as a bearer token).
const recoveryToken = "recovery-test-token-0123456789abcdefghijklmnop"

// tokenProc is a switchboard started with an access token of the test's
// choosing, so the test can kill it with SIGKILL and talk to its API.
type tokenProc struct {
	t    *testing.T
	cmd  *exec.Cmd
	base string // scheme://host:port, no path or query
	logs *lineLog
}

func launchWithToken(t *testing.T, data, settings string) *tokenProc {
	t.Helper()
	home := t.TempDir()
	cmd := exec.Command(binary, "--addr", "127.0.0.1:0", "--data", data, "--project", data, "--settings", settings)
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, "config"),
		"SWITCHBOARD_TOKEN="+recoveryToken)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &tokenProc{t: t, cmd: cmd, logs: &lineLog{}}
	cmd.Stderr = p.logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if p.cmd.ProcessState == nil {
			_ = p.cmd.Process.Kill()
			_ = p.cmd.Wait()
		}
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	const prefix = "switchboard listening on "
	if err != nil || !strings.HasPrefix(line, prefix) {
		t.Fatalf("first stdout line %q (%v), want %q...; log:\n%s", line, err, prefix, p.logs)
	}
	u, err := url.Parse(strings.TrimSpace(strings.TrimPrefix(line, prefix)))
	if err != nil {
		t.Fatalf("listening line %q: %v", line, err)
	}
	p.base = u.Scheme + "://" + u.Host
	return p
}

func (p *tokenProc) do(method, path string, body []byte) (int, []byte) {
	p.t.Helper()
	req, err := http.NewRequest(method, p.base+path, bytes.NewReader(body))
	if err != nil {
		p.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+recoveryToken)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		p.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, out
}

// until asks check every 50 ms until it reports true; patience bounds the
// wait, which only stops a broken test.
func (p *tokenProc) until(what string, check func() bool) {
	p.t.Helper()
	deadline := time.Now().Add(patience)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for !check() {
		if time.Now().After(deadline) {
			p.t.Fatalf("%s never happened; log:\n%s", what, p.logs)
		}
		<-tick.C
	}
}

func (p *tokenProc) invocation(id string) handlers.InvocationDTO {
	p.t.Helper()
	code, body := p.do(http.MethodGet, handlers.InvocationPath(handlers.PathInvocation, id), nil)
	if code != http.StatusOK {
		p.t.Fatalf("GET invocation %s: %d %s", id, code, body)
	}
	var inv handlers.InvocationDTO
	if err := json.Unmarshal(body, &inv); err != nil {
		p.t.Fatal(err)
	}
	return inv
}

// A call in flight when Switchboard is killed with SIGKILL is, after the
// next start on the same data, an error with code interrupted, an end and
// its audit row; the next start also makes data files others could read
// private again.
func TestKilledDuringACallThenRestarted(t *testing.T) {
	data := t.TempDir()
	settings := writeSettings(t, map[string]any{"demo": demoServer()})
	first := launchWithToken(t, data, settings)
	first.until("demo connected", func() bool {
		code, body := first.do(http.MethodGet, handlers.ServerPath(handlers.PathServer, "demo"), nil)
		var s handlers.StatusDTO
		return code == http.StatusOK && json.Unmarshal(body, &s) == nil && s.State == "connected"
	})
	code, body := first.do(http.MethodPost, handlers.ToolCallPath("demo", "long_task"), []byte(`{"steps":100,"stepMillis":1000}`))
	var started handlers.InvocationDTO
	if code != http.StatusAccepted || json.Unmarshal(body, &started) != nil {
		t.Fatalf("start long_task: %d %s, want 202", code, body)
	}
	first.until("long_task running", func() bool { return first.invocation(started.ID).Status == "running" })

	if err := first.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = first.cmd.Wait()
	// As an older version, or a loose umask, might have left them.
	if err := os.Chmod(filepath.Join(data, "switchboard.db"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(data, 0o755); err != nil {
		t.Fatal(err)
	}

	second := launchWithToken(t, data, settings)
	got := second.invocation(started.ID)
	if got.Status != "error" || got.EndedAt == nil || got.Error == nil || *got.Error != domain.InterruptedMessage {
		t.Errorf("after restart: got status %q, endedAt %v, error %v; want error, an end and %q",
			got.Status, got.EndedAt, got.Error, domain.InterruptedMessage)
	}
	// Cancel answers with the ended call, not one that stays running.
	code, body = second.do(http.MethodPost, handlers.InvocationPath(handlers.PathInvocationCancel, started.ID), nil)
	var cancelled handlers.InvocationDTO
	if code != http.StatusOK || json.Unmarshal(body, &cancelled) != nil || cancelled.Status != "error" {
		t.Errorf("cancel after restart: %d %s, want 200 with status error", code, body)
	}
	if err := second.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if err := second.cmd.Wait(); err != nil {
		t.Errorf("second instance exited with %v, want 0; log:\n%s", err, second.logs)
	}
	if !strings.Contains(second.logs.String(), "ended tool calls interrupted by an earlier stop") ||
		!strings.Contains(second.logs.String(), "made it private") {
		t.Errorf("log: want the interrupted calls and the narrowed permissions reported; got:\n%s", second.logs)
	}

	for path, want := range map[string]os.FileMode{data: 0o700, filepath.Join(data, "switchboard.db"): 0o600} {
		info, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := info.Mode().Perm(); got != want {
			t.Errorf("%s: mode %v, want %v", path, got, want)
		}
	}

	db, err := sql.Open("sqlite", "file:"+filepath.Join(data, "switchboard.db")+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var status, errorCode, errText, args string
	var startedAt, endedAt int64
	err = db.QueryRow(`SELECT status, error_code, error, arguments, started_at, ended_at FROM invocations WHERE id = ?`,
		started.ID).Scan(&status, &errorCode, &errText, &args, &startedAt, &endedAt)
	if err != nil {
		t.Fatal(err)
	}
	if status != "error" || errorCode != domain.ErrorCodeInterrupted || errText != domain.InterruptedMessage || endedAt < startedAt {
		t.Errorf("stored call: %s %q %q %d..%d, want error %q %q with an end", status, errorCode, errText,
			startedAt, endedAt, domain.ErrorCodeInterrupted, domain.InterruptedMessage)
	}
	rows, err := db.Query(`SELECT user, workspace, server, tool, args_sha256, outcome, started_at, ended_at
		FROM audit_log WHERE invocation_id = ?`, started.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		n++
		var user, workspace, server, tool, hash, outcome string
		var s, e int64
		if err := rows.Scan(&user, &workspace, &server, &tool, &hash, &outcome, &s, &e); err != nil {
			t.Fatal(err)
		}
		if user != domain.LocalUser || workspace != data || server != "demo" || tool != "long_task" ||
			hash != domain.ArgumentsHash(json.RawMessage(args)) || outcome != "error" || s != startedAt || e != endedAt {
			t.Errorf("audit row: %s %s %s %s %s %s %d..%d, want the call's", user, workspace, server, tool, hash,
				outcome, s, e)
		}
	}
	if n != 1 {
		t.Errorf("audit rows of the call: got %d, want 1", n)
	}
}

// Cancel reaches a call that a killed process left running, before (or
// without) start-up recovery: it ends the call, with its audit row, on the
// real store, instead of answering with a call that stays running.
func TestCancelOfACallNoProcessRuns(t *testing.T) {
	data := t.TempDir()
	scope := domain.Scope{User: domain.LocalUser, Workspace: data}
	killed, err := sqlite.Open(t.Context(), data)
	if err != nil {
		t.Fatal(err)
	}
	ghost := domain.Invocation{ID: "ghost", Scope: scope, Key: domain.CallKey{ConversationID: "c", MessageID: "m", ToolCallID: "t"},
		ServerName: "demo", Tool: "long_task", Arguments: json.RawMessage(`{"steps":100}`),
		Status: domain.InvocationRunning, StartedAt: time.UnixMilli(1_780_000_000_000), Version: 900}
	if err := killed.InvocationStore().SaveInvocation(t.Context(), ghost); err != nil {
		t.Fatal(err)
	}
	if err := killed.Close(); err != nil {
		t.Fatal(err)
	}

	db, err := sqlite.Open(t.Context(), data)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	svc := domain.NewInvocations(domain.InvocationsOptions{Store: db.InvocationStore()})
	feed := svc.Feed().Subscribe(scope)
	defer feed.Close()
	got, err := svc.Cancel(t.Context(), scope, "ghost")
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != domain.InvocationError || got.ErrorCode != domain.ErrorCodeInterrupted || got.EndedAt.IsZero() ||
		got.Version <= 900 {
		t.Errorf("Cancel: got %s %q ended %v v%d, want error %q, an end and a version above 900", got.Status,
			got.ErrorCode, got.EndedAt, got.Version, domain.ErrorCodeInterrupted)
	}
	stored, err := db.InvocationStore().Invocation(t.Context(), scope, "ghost")
	if err != nil || stored.Status != domain.InvocationError || stored.Version != got.Version {
		t.Errorf("stored: got %s v%d (%v), want error v%d", stored.Status, stored.Version, err, got.Version)
	}
	if changes := feed.Drain(); len(changes) != 1 || changes[0].Version != got.Version {
		t.Errorf("feed: got %+v, want the ended call once", changes)
	}
	// Its trace is there, once, and retention can now delete both.
	n, err := db.InvocationStore().PruneBefore(t.Context(), got.EndedAt.Add(time.Millisecond))
	if err != nil || n != 2 {
		t.Errorf("prune: got %d rows (%v), want the call and its audit row", n, err)
	}
}
