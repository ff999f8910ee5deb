package domain_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
)

func logNote(server, params string) domain.ServerNotification {
	return domain.ServerNotification{Server: server, Method: domain.NotifyMessage, Params: []byte(params)}
}

func TestServerLogsKeepsMessagesAsSent(t *testing.T) {
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	logs := domain.NewServerLogs(domain.ServerLogsOptions{Clock: domaintest.NewClock(at)})
	logs.Add(logNote("a", `{"level":"warning","logger":"db","data":"disk <b>full</b>"}`))
	logs.Add(logNote("a", `{"level":"info","data":{ "rows" : 3, "ok": true }}`))
	logs.Add(domain.ServerNotification{Server: "a", Method: domain.NotifyResourceUpdated, Params: []byte(`{"uri":"x"}`)})
	logs.Add(logNote("a", `[1,2]`)) // not an object: ignored
	logs.Add(logNote("b", `{"level":"error","data":null}`))

	got := logs.Entries("a")
	if len(got) != 2 {
		t.Fatalf("got %d entries for a, want 2: %+v", len(got), got)
	}
	first := got[0]
	if first.Seq != 1 || first.Level != "warning" || first.Logger != "db" || first.Text != "disk <b>full</b>" || !first.At.Equal(at) {
		t.Errorf("got first %+v, want seq 1, warning from db, the string unquoted, at %v", first, at)
	}
	if string(first.Data) != `"disk <b>full</b>"` {
		t.Errorf("got data %s, want the JSON string as sent", first.Data)
	}
	if second := got[1]; second.Seq != 2 || second.Text != `{"rows":3,"ok":true}` || string(second.Data) != second.Text || second.Logger != "" {
		t.Errorf("got second %+v, want compact JSON and no logger", second)
	}
	if n := logs.Seq("a"); n != 2 {
		t.Errorf("got seq %d for a, want 2", n)
	}
	if b := logs.Entries("b"); len(b) != 1 || b[0].Seq != 1 || b[0].Text != "null" {
		t.Errorf("got %+v for b, want its own first message", b)
	}
	if none := logs.Entries("c"); none != nil || logs.Seq("c") != 0 {
		t.Errorf("got %+v for a silent server, want nothing", none)
	}
}

func TestServerLogsBoundsRingAndText(t *testing.T) {
	logs := domain.NewServerLogs(domain.ServerLogsOptions{Entries: 3, MaxDataBytes: 10})
	for _, d := range []string{`"1"`, `"2"`, `"3"`, `"4"`, `"5"`} {
		logs.Add(logNote("a", `{"level":"info","data":`+d+`}`))
	}
	got := logs.Entries("a")
	if len(got) != 3 || got[0].Text != "3" || got[2].Text != "5" || got[2].Seq != 5 {
		t.Fatalf("got %+v, want the newest three, 3 to 5", got)
	}
	// A long message keeps its beginning, cut on a character boundary.
	logs.Add(logNote("a", `{"level":"info","data":"ééééééé","logger":"`+strings.Repeat("x", 1000)+`"}`))
	last := logs.Entries("a")[2]
	if !last.Truncated || last.Data != nil || last.Text != "ééééé" {
		t.Errorf("got %+v, want the first five characters (10 bytes), no raw data, marked truncated", last)
	}
	if len(last.Logger) != 256 {
		t.Errorf("got a logger of %d bytes, want it cut to 256", len(last.Logger))
	}
}

func TestServerLogsSignalsSubscribersOncePerBurst(t *testing.T) {
	clock := domaintest.NewClock(time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC))
	logs := domain.NewServerLogs(domain.ServerLogsOptions{Clock: clock, Burst: 50 * time.Millisecond})
	ch, stop := logs.Subscribe()
	logs.Add(logNote("a", `{"level":"info","data":"x"}`))
	logs.Add(logNote("b", `{"level":"info","data":"y"}`)) // same burst
	clock.WaitForTimer(t, 50*time.Millisecond)
	select {
	case <-ch:
		t.Fatal("got a signal before the burst was over")
	default:
	}
	if n := len(clock.Timers()); n != 1 {
		t.Errorf("got %d burst timers, want one for both messages", n)
	}
	clock.Advance(50 * time.Millisecond)
	<-ch // the burst's one signal
	select {
	case <-ch:
		t.Fatal("got a second signal, want one pending at most")
	default:
	}
	stop()
	logs.Add(logNote("a", `{"level":"info","data":"z"}`))
	clock.WaitForTimer(t, 50*time.Millisecond)
	clock.Advance(50 * time.Millisecond)
	select {
	case <-ch:
		t.Fatal("got a signal after the subscription ended")
	default:
	}
}

func TestServerLogsSignalsAtOnceWithoutBurst(t *testing.T) {
	logs := domain.NewServerLogs(domain.ServerLogsOptions{Burst: -1})
	ch, stop := logs.Subscribe()
	defer stop()
	logs.Add(logNote("a", `{"level":"info","data":"x"}`))
	select {
	case <-ch:
	default:
		t.Fatal("no signal after a message")
	}
}

func TestServerLogsSinceTellsWhatIsNew(t *testing.T) {
	logs := domain.NewServerLogs(domain.ServerLogsOptions{Entries: 3, Burst: -1})
	if got, seq, whole := logs.Since("a", 0); got != nil || seq != 0 || !whole {
		t.Errorf("got %v %d %v for a silent server, want nothing new and whole", got, seq, whole)
	}
	for range 2 {
		logs.Add(logNote("a", `{"level":"info","data":"x"}`))
	}
	if got, seq, whole := logs.Since("a", 1); len(got) != 1 || got[0].Seq != 2 || seq != 2 || !whole {
		t.Errorf("got %+v %d %v, want message 2 alone", got, seq, whole)
	}
	for range 3 {
		logs.Add(logNote("a", `{"level":"info","data":"x"}`))
	}
	// Kept now: 3, 4, 5.
	if got, seq, whole := logs.Since("a", 2); len(got) != 3 || got[0].Seq != 3 || seq != 5 || !whole {
		t.Errorf("got %+v %d %v after 2, want 3..5", got, seq, whole)
	}
	if _, seq, whole := logs.Since("a", 1); whole || seq != 5 {
		t.Errorf("got whole %v seq %d after 1, want not whole: message 2 was dropped", whole, seq)
	}
	if _, _, whole := logs.Since("a", 9); whole {
		t.Error("got whole after a seq the server never reached, want a start over")
	}
	if got, _, whole := logs.Since("a", 5); len(got) != 0 || !whole {
		t.Errorf("got %+v %v after the newest, want nothing and whole", got, whole)
	}
}

// redactors gives every server a redactor of the one secret.
type redactors struct{ secret string }

func (r redactors) Redactor(server string) (domain.Redactor, error) {
	if server == "gone" {
		return domain.Redactor{}, domain.ErrNotFound
	}
	return domain.NewRedactor(r.secret), nil
}

func TestServerLogsRedactsOnceWhenKept(t *testing.T) {
	logs := domain.NewServerLogs(domain.ServerLogsOptions{Redactors: redactors{"hunter2-secret"}, Burst: -1})
	logs.Add(logNote("a", `{"level":"error","logger":"hunter2-secret","data":{"pw":"hunter2-secret"}}`))
	logs.Add(logNote("a", `{"level":"hunter2-secret","data":"fine"}`))
	logs.Add(logNote("gone", `{"level":"info","data":"x"}`))
	got := logs.Entries("a")
	if len(got) != 2 {
		t.Fatalf("got %d entries, want 2", len(got))
	}
	for _, e := range got {
		all := e.Level + e.Logger + e.Text + string(e.Data)
		if strings.Contains(all, "hunter2-secret") {
			t.Errorf("got %+v, want the secret redacted", e)
		}
	}
	if got[0].Data != nil {
		t.Errorf("got data %s, want data that held a secret withheld", got[0].Data)
	}
	if string(got[1].Data) != `"fine"` {
		t.Errorf("got data %s, want clean data kept", got[1].Data)
	}
	if logs.Entries("gone") != nil {
		t.Error("got messages of a server the fleet no longer knows, want none")
	}
}

// levelCalls records the levels a ServerLogs asks for.
type levelCalls struct {
	mu    sync.Mutex
	calls []string
	err   error
	seen  chan string
}

func (l *levelCalls) SetLogLevel(_ context.Context, server, level string) error {
	l.mu.Lock()
	l.calls = append(l.calls, server+"="+level)
	err := l.err
	l.mu.Unlock()
	if l.seen != nil {
		l.seen <- server + "=" + level
	}
	return err
}

func TestServerLogsSetLevel(t *testing.T) {
	set := &levelCalls{}
	logs := domain.NewServerLogs(domain.ServerLogsOptions{Levels: set})
	if err := logs.SetLevel(t.Context(), "a", "loud"); !errors.Is(err, domain.ErrInvalidRequest) {
		t.Errorf("got %v for an unknown level, want ErrInvalidRequest", err)
	}
	if err := logs.SetLevel(t.Context(), "a", "warning"); err != nil {
		t.Fatalf("set warning: %v", err)
	}
	if got := logs.Level("a"); got != "warning" {
		t.Errorf("got level %q, want warning remembered", got)
	}
	set.err = domain.ErrNotConnected
	if err := logs.SetLevel(t.Context(), "a", "debug"); !errors.Is(err, domain.ErrNotConnected) {
		t.Errorf("got %v, want the setter's error", err)
	}
	if got := logs.Level("a"); got != "warning" {
		t.Errorf("got level %q after a refusal, want warning kept", got)
	}
	if strings.Join(set.calls, ",") != "a=warning,a=debug" {
		t.Errorf("got calls %v, want a=warning then a=debug", set.calls)
	}
	if err := domain.NewServerLogs(domain.ServerLogsOptions{}).SetLevel(t.Context(), "a", "info"); !errors.Is(err, domain.ErrNotConnected) {
		t.Errorf("got %v without a setter, want ErrNotConnected", err)
	}
}

func TestServerLogsFollowAsksAgainAfterReconnect(t *testing.T) {
	set := &levelCalls{seen: make(chan string, 4)}
	logs := domain.NewServerLogs(domain.ServerLogsOptions{Levels: set})
	hub := domain.NewHub()
	first := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	hub.Publish(domain.Status{ServerName: "a", State: domain.StateConnected, Phase: domain.PhaseConnected, ConnectedAt: first})
	hub.Publish(domain.Status{ServerName: "quiet", State: domain.StateConnected, Phase: domain.PhaseConnected, ConnectedAt: first})
	if err := logs.SetLevel(t.Context(), "a", "error"); err != nil {
		t.Fatal(err)
	}
	<-set.seen // the person's own request

	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { defer close(done); logs.Follow(ctx, hub) }()
	defer func() { cancel(); <-done }()

	// Follow cannot tell whether the connection it first sees was asked
	// already, so it asks once more.
	if got := <-set.seen; got != "a=error" {
		t.Fatalf("got %s, want a=error", got)
	}
	hub.Publish(domain.Status{ServerName: "a", State: domain.StateConnecting, Phase: domain.PhaseConnecting})
	hub.Publish(domain.Status{ServerName: "a", State: domain.StateConnected, Phase: domain.PhaseConnected, ConnectedAt: first.Add(time.Minute)})
	if got := <-set.seen; got != "a=error" {
		t.Fatalf("got %s after a reconnect, want a=error", got)
	}
	// A removed server is forgotten: by the time the next snapshot is
	// handled, its level is gone.
	if err := logs.SetLevel(t.Context(), "quiet", "debug"); err != nil {
		t.Fatal(err)
	}
	<-set.seen
	hub.Publish(domain.Status{ServerName: "a", Phase: domain.PhaseDisposed})
	hub.Publish(domain.Status{ServerName: "quiet", State: domain.StateConnected, Phase: domain.PhaseConnected, ConnectedAt: first.Add(time.Hour)})
	if got := <-set.seen; got != "quiet=debug" {
		t.Fatalf("got %s, want quiet=debug after its reconnect", got)
	}
	if got := logs.Level("a"); got != "" {
		t.Errorf("got level %q for a removed server, want it forgotten", got)
	}
}
