package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
	"github.com/switchboard-mcp/switchboard/handlers"
	"github.com/switchboard-mcp/switchboard/views"
)

// levelRecorder is the servers' side of a level request: it records what
// was asked and answers err.
type levelRecorder struct {
	mu    sync.Mutex // guards asked and err
	asked []string
	err   error
}

func (l *levelRecorder) SetLogLevel(_ context.Context, server, level string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.asked = append(l.asked, server+"="+level)
	return l.err
}

func (l *levelRecorder) calls() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.asked, ",")
}

// logsFixture is a fixture whose servers' log messages are kept by logs,
// levels going to rec.
func logsFixture(t *testing.T) (*fixture, *domain.ServerLogs, *levelRecorder) {
	t.Helper()
	rec := &levelRecorder{}
	logs := domain.NewServerLogs(domain.ServerLogsOptions{Levels: rec})
	f := newFixture(t, func(o *handlers.Options) { o.ServerLogs = logs })
	return f, logs, rec
}

func addLog(logs *domain.ServerLogs, server, params string) {
	logs.Add(domain.ServerNotification{Server: server, Method: domain.NotifyMessage, Params: []byte(params)})
}

func TestServerLogsAPI(t *testing.T) {
	f, logs, rec := logsFixture(t)
	f.connect(t, stdio("files"), domain.Capabilities{})
	addLog(logs, "files", `{"level":"info","logger":"db","data":{"rows":3}}`)
	addLog(logs, "files", `{"level":"error","data":"login with Authorization: Bearer abcdefghijklmnop0123456789"}`)

	status, body := f.do(t, http.MethodGet, handlers.ServerPath(handlers.PathServerLogs, "files"), nil)
	if status != http.StatusOK {
		t.Fatalf("GET logs: got %d, want 200; %s", status, body)
	}
	got := decode[handlers.ServerLogsDTO](t, body)
	if got.Server != "files" || got.Level != "" || len(got.Logs) != 2 {
		t.Fatalf("got %+v, want two messages and no level chosen", got)
	}
	if first := got.Logs[0]; first.Seq != 1 || first.Level != "info" || first.Logger != "db" || string(first.Data) != `{"rows":3}` {
		t.Errorf("got first %+v, want info from db with its data as sent", first)
	}
	if second := got.Logs[1]; string(second.Data) != "null" || strings.Contains(second.Text, "abcdefghijklmnop") || strings.Contains(string(body), "abcdefghijklmnop") {
		t.Errorf("got second %+v, want the bearer token redacted and the raw data withheld", second)
	}

	path := handlers.ServerPath(handlers.PathServerLogLevel, "files")
	if status, body := f.doBody(t, http.MethodPut, path, nil, `{"level":"debug"}`); status != http.StatusOK {
		t.Fatalf("PUT level: got %d, want 200; %s", status, body)
	}
	if rec.calls() != "files=debug" || logs.Level("files") != "debug" {
		t.Errorf("got calls %q and level %q, want files=debug remembered", rec.calls(), logs.Level("files"))
	}
	status, body = f.doBody(t, http.MethodPut, path, nil, `{"level":"loud"}`)
	wantError(t, status, body, http.StatusBadRequest, "bad_request")
	status, body = f.doBody(t, http.MethodPut, handlers.ServerPath(handlers.PathServerLogLevel, "ghost"), nil, `{"level":"info"}`)
	wantError(t, status, body, http.StatusNotFound, "not_found")
	status, body = f.do(t, http.MethodGet, handlers.ServerPath(handlers.PathServerLogs, "ghost"), nil)
	wantError(t, status, body, http.StatusNotFound, "not_found")
}

func TestServerLogsLevelForm(t *testing.T) {
	f, logs, rec := logsFixture(t)
	f.connect(t, stdio("files"), domain.Capabilities{})
	path := handlers.ServerPath(handlers.PathUILogLevel, "files")

	r := f.ui(t, http.MethodPost, path, url.Values{"level": {"warning"}}, "en")
	if r.status != http.StatusOK || !strings.Contains(r.doc.Find(`[data-testid="log-level-status"]`).Text(), "Warning and more severe") {
		t.Errorf("got %d %q, want the form marked saved", r.status, r.body)
	}
	if got := r.doc.Find(`select[name="level"] option[selected]`).AttrOr("value", ""); got != "warning" || logs.Level("files") != "warning" {
		t.Errorf("got %q selected, want warning", got)
	}

	r = f.ui(t, http.MethodPost, path, url.Values{"level": {""}}, "en")
	if r.status != http.StatusUnprocessableEntity || r.doc.Find(`[data-testid="log-level-error"]`).Length() != 1 {
		t.Errorf("got %d %q for no level, want 422 with the refusal beside the selector", r.status, r.body)
	}

	rec.mu.Lock()
	rec.err = domain.ErrNotConnected
	rec.mu.Unlock()
	r = f.ui(t, http.MethodPost, path, url.Values{"level": {"debug"}}, "pt-BR")
	if r.status != http.StatusUnprocessableEntity || !strings.Contains(r.doc.Find(`[data-testid="log-level-error"]`).Text(), "não está conectado") {
		t.Errorf("got %d %q, want 422 saying in Portuguese that the server is not connected", r.status, r.body)
	}
	if got := r.doc.Find(`option[selected]`).AttrOr("value", ""); got != "warning" {
		t.Errorf("got %q selected after a refusal, want the level still in effect (warning)", got)
	}

	r = f.ui(t, http.MethodPost, handlers.ServerPath(handlers.PathUILogLevel, "ghost"), url.Values{"level": {"info"}}, "en")
	if r.status != http.StatusNotFound || r.header.Get("HX-Retarget") != "#toast" {
		t.Errorf("got %d to %q for an unknown server, want a 404 toast", r.status, r.header.Get("HX-Retarget"))
	}
}

func TestServerLogsInDrawerAndLive(t *testing.T) {
	f, logs, _ := logsFixture(t)
	f.connect(t, stdio("files"), domain.Capabilities{})
	addLog(logs, "files", `{"level":"notice","data":"first"}`)

	r := f.ui(t, http.MethodGet, handlers.ServerPath(handlers.PathUIDrawer, "files"), nil, "en")
	entries := r.doc.Find(`[data-testid="drawer-logs"] [data-testid="log-entry"]`)
	if entries.Length() != 1 || !strings.Contains(entries.Text(), "first") {
		t.Fatalf("got %d entries in the drawer, want the one message", entries.Length())
	}

	s := f.openPageEvents(t, nil)
	s.until(t, "the full state", func(fr sseFrame) bool { return isFullState(fragment(t, fr)) })
	addLog(logs, "files", `{"level":"error","logger":"db","data":"<b>second</b>"}`)
	fr, _ := s.until(t, "the drawer's new log entry", func(fr sseFrame) bool {
		return fr.Event == views.DrawerEvent("files") && strings.Contains(fr.Data, "log-append")
	})
	doc := fragment(t, fr)
	app := doc.Find(`[data-testid="log-append"][hx-swap-oob="afterbegin:#` + views.DrawerLogItemsID("files") + `"]`)
	if app.Length() != 1 {
		t.Fatalf("got %q, want the new entries out of band at the top of the list", fr.Data)
	}
	if n := app.Find(`[data-testid="log-entry"]`).Length(); n != 1 || strings.Contains(fr.Data, "first") {
		t.Errorf("got %d entries in %q, want the new message alone", n, fr.Data)
	}
	if got := app.Find(`[data-testid="log-data"]`).Text(); got != "<b>second</b>" {
		t.Errorf("got %q, want the new message as text", got)
	}
}

func TestServerLogsLiveSendsWholeListWhenMessagesWereDropped(t *testing.T) {
	clock := domaintest.NewClock(time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC))
	logs := domain.NewServerLogs(domain.ServerLogsOptions{Levels: &levelRecorder{}, Clock: clock, Entries: 2, Burst: 20 * time.Millisecond})
	f := newFixture(t, func(o *handlers.Options) { o.ServerLogs = logs })
	f.connect(t, stdio("files"), domain.Capabilities{})
	addLog(logs, "files", `{"level":"info","data":"one"}`)
	clock.WaitForTimer(t, 20*time.Millisecond)
	clock.Advance(20 * time.Millisecond)

	s := f.openPageEvents(t, nil)
	s.until(t, "the full state", func(fr sseFrame) bool { return isFullState(fragment(t, fr)) })
	// One burst drops "one" and "two" from the front: the page's list
	// cannot be mended by adding, so it is sent whole.
	for _, d := range []string{"two", "three", "four"} {
		addLog(logs, "files", `{"level":"info","data":"`+d+`"}`)
	}
	clock.WaitForTimer(t, 20*time.Millisecond)
	clock.Advance(20 * time.Millisecond)
	fr, _ := s.until(t, "the drawer's whole log list", func(fr sseFrame) bool {
		return fr.Event == views.DrawerEvent("files") && strings.Contains(fr.Data, "log-list-wrap")
	})
	list := fragment(t, fr).Find(`#` + views.DrawerLogListID("files") + `[hx-swap-oob="outerHTML"]`)
	if list.Length() != 1 || list.AttrOr("data-seq", "") != "4" || list.Find(`[data-testid="log-entry"]`).Length() != 2 {
		t.Fatalf("got %q, want the whole list out of band at seq 4 with the two kept", fr.Data)
	}
	if strings.Contains(fr.Data, "log-append") {
		t.Errorf("got %q, want no appended entries beside the whole list", fr.Data)
	}
}
