package handlers_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/handlers"
	"github.com/switchboard-mcp/switchboard/sqlite"
	"github.com/switchboard-mcp/switchboard/views"
)

// callsFixture is a dashboard over a real SQLite store seeded with calls
// one second apart, the newest first in the list.
type callsFixture struct {
	*fixture
	store *sqlite.InvocationStore
	at    time.Time // the oldest call's start
}

func newCallsFixture(t *testing.T) *callsFixture {
	t.Helper()
	db, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	f := &callsFixture{store: db.InvocationStore(), at: time.Date(2026, 12, 1, 14, 0, 0, 0, time.UTC)}
	f.fixture = newFixture(t, func(o *handlers.Options) {
		o.Scope = testScope
		svc := domain.NewInvocations(domain.InvocationsOptions{Caller: o.Fleet, Catalog: o.Fleet, Store: f.store})
		t.Cleanup(func() { _ = svc.Close(context.Background()) })
		o.Invocations = svc
	})
	return f
}

// seed stores n finished calls on server, the i-th started i seconds after
// f.at, with status picking each one's outcome.
func (f *callsFixture) seed(t *testing.T, server string, n int, status func(i int) domain.InvocationStatus) []domain.Invocation {
	t.Helper()
	var out []domain.Invocation
	for i := range n {
		st := status(i)
		id := fmt.Sprintf("%s-%04d", server, i)
		inv := domain.Invocation{ID: id, Scope: testScope, ServerName: server, Tool: "echo",
			Key:       domain.CallKey{ConversationID: "c", MessageID: id, ToolCallID: id},
			Arguments: []byte(`{}`), Source: domain.SourceAPI, Status: st,
			StartedAt: f.at.Add(time.Duration(i) * time.Second), EndedAt: f.at.Add(time.Duration(i)*time.Second + 250*time.Millisecond)}
		if st == domain.InvocationError {
			inv.Error = "upstream said <no> & went away"
		} else {
			inv.Result = []byte(`{"content":[{"type":"text","text":"ok"}]}`)
		}
		if err := f.store.SaveInvocation(t.Context(), inv); err != nil {
			t.Fatal(err)
		}
		out = append(out, inv)
	}
	return out
}

func (f *callsFixture) getDoc(t *testing.T, path string) *goquery.Document {
	t.Helper()
	code, body := f.do(t, http.MethodGet, path, nil)
	if code != http.StatusOK {
		t.Fatalf("GET %s: status %d: %s", path, code, body)
	}
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func ok(int) domain.InvocationStatus { return domain.InvocationSuccess }

// The page's list holds the newest hundred rows, newest first, and
// "Older calls" pages on by keyset until nothing older is left.
func TestCallListShowsNewestHundredThenOlderOnDemand(t *testing.T) {
	f := newCallsFixture(t)
	f.seed(t, "demo", 230, ok)
	s := f.openPageEvents(t, nil)
	first, _ := s.until(t, "the full list", func(fr sseFrame) bool {
		return fr.Event == "status" && fragment(t, fr).Find(`#calls-list[hx-swap-oob]`).Length() == 1
	})
	doc := fragment(t, first)
	rows := doc.Find(`#calls-list [data-testid="call-row"]`)
	if rows.Length() != views.CallsLimit {
		t.Fatalf("rows: got %d, want %d", rows.Length(), views.CallsLimit)
	}
	if got := rows.First().AttrOr("data-invocation", ""); got != "demo-0229" {
		t.Errorf("first row: got %s, want the newest, demo-0229", got)
	}
	older := doc.Find(`#calls-older-slot [data-testid="calls-older"]`).AttrOr("hx-get", "")
	var seen []string
	for pages := 0; older != ""; pages++ {
		if pages > 3 {
			t.Fatal("older pages never end")
		}
		page := f.getDoc(t, older)
		page.Find(`[hx-swap-oob="beforeend:#calls-list"] [data-testid="call-row"]`).Each(func(_ int, r *goquery.Selection) {
			seen = append(seen, r.AttrOr("data-invocation", ""))
		})
		older = page.Find(`[data-testid="calls-older"]`).AttrOr("hx-get", "")
	}
	if len(seen) != 130 || seen[0] != "demo-0129" || seen[len(seen)-1] != "demo-0000" {
		t.Errorf("older rows: got %d from %v to %v, want 130 from demo-0129 to demo-0000", len(seen), first3(seen), last(seen))
	}
}

func first3(s []string) []string { return s[:min(3, len(s))] }
func last(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[len(s)-1]
}

// The filters live in the page's address: the form shows them, the page
// stream is opened with them, and its list holds only matching calls.
func TestCallListFiltersFromThePageAddress(t *testing.T) {
	f := newCallsFixture(t)
	f.attach(t, stdio("demo"), stdio("other"))
	f.seed(t, "demo", 10, func(i int) domain.InvocationStatus {
		if i%2 == 0 {
			return domain.InvocationError
		}
		return domain.InvocationSuccess
	})
	f.seed(t, "other", 3, ok)
	from, to := f.at.Add(2*time.Second), f.at.Add(7*time.Second)
	filter := views.CallsFilter{Server: "demo", Status: "error", From: from, To: to}
	page := f.getDoc(t, filter.URL(handlers.PathDashboard))
	if got := page.Find(`[data-testid="calls-filter-server"] option[selected]`).AttrOr("value", ""); got != "demo" {
		t.Errorf("server filter shown: got %q", got)
	}
	if got := page.Find(`[data-testid="calls-filter-status"] option[selected]`).AttrOr("value", ""); got != "error" {
		t.Errorf("status filter shown: got %q", got)
	}
	if page.Find(`[data-testid="calls-range"]`).Length() != 1 {
		t.Error("no removable time-range chip")
	}
	events := page.Find(`body`).AttrOr("sse-connect", "")
	if want := filter.URL(handlers.PathPageEvents); events != want {
		t.Fatalf("page stream: got %q, want %q", events, want)
	}
	s := f.openPageEventsAt(t, events, nil)
	full, _ := s.until(t, "the filtered list", func(fr sseFrame) bool {
		return fr.Event == "status" && fragment(t, fr).Find(`#calls-list[hx-swap-oob]`).Length() == 1
	})
	var ids []string
	fragment(t, full).Find(`[data-testid="call-row"]`).Each(func(_ int, r *goquery.Selection) {
		ids = append(ids, r.AttrOr("data-invocation", ""))
	})
	if got, want := fmt.Sprint(ids), "[demo-0006 demo-0004 demo-0002]"; got != want {
		t.Errorf("filtered rows: got %s, want %s", got, want)
	}
}

// A failed call's row shows its message, escaped; its card opens with the
// error first, in words and symbol, in the list's own id namespace.
func TestFailedCallRowShowsErrorAndCardOpensErrorFirst(t *testing.T) {
	f := newCallsFixture(t)
	invs := f.seed(t, "demo", 1, func(int) domain.InvocationStatus { return domain.InvocationError })
	s := f.openPageEvents(t, nil)
	full, _ := s.until(t, "the list", func(fr sseFrame) bool {
		return fr.Event == "status" && fragment(t, fr).Find(`#calls-list[hx-swap-oob]`).Length() == 1
	})
	row := fragment(t, full).Find(`[data-testid="call-row"][data-status="error"]`)
	if got := row.Find(`[data-testid="call-row-error"]`).Text(); got != invs[0].Error {
		t.Errorf("row error: got %q, want %q", got, invs[0].Error)
	}
	if !bytes.Contains([]byte(full.Data), []byte("&lt;no&gt; &amp; went away")) {
		t.Errorf("the error is not escaped in the row: %s", full.Data)
	}
	url := row.Find(`[data-testid="call-row-toggle"]`).AttrOr("data-card-url", "")
	if url == "" {
		t.Fatal("the row names no card to open")
	}
	card := f.getDoc(t, url)
	wrap := card.Find(`[data-testid="call-card"]`)
	if got := wrap.AttrOr("sse-swap", ""); got != views.CallEvent(invs[0].ID) {
		t.Errorf("card listens to %q, want %q", got, views.CallEvent(invs[0].ID))
	}
	first := wrap.Children().First()
	if first.AttrOr("data-testid", "") != "call-card-error" || first.Find("p").Text() != invs[0].Error {
		t.Errorf("the card does not open with its error: %s", first.Text())
	}
	if got := card.Find(`[data-testid="invocation-card"]`).AttrOr("id", ""); got != views.CardID(views.CallCardPlace, invs[0].ID) {
		t.Errorf("card id: got %q, want the list's own namespace", got)
	}
}

// A new call that does not match the page's filters is not inserted.
func TestCallListStreamInsertsOnlyMatchingCalls(t *testing.T) {
	f := newInvFixture(t)
	s := f.openPageEventsAt(t, views.CallsFilter{Server: "elsewhere"}.URL(handlers.PathPageEvents), nil)
	s.until(t, "the empty list", func(fr sseFrame) bool {
		return fr.Event == "status" && fragment(t, fr).Find(`#calls-list[hx-swap-oob]`).Length() == 1
	})
	_, body := f.post(t, handlers.ToolCallPath("demo", "echo"), `{}`)
	inv := decode[handlers.InvocationDTO](t, body)
	// The drawer's card still arrives, so the stream has seen the call.
	s.until(t, "the drawer's insert", func(fr sseFrame) bool {
		if fr.Event == "status" && fragment(t, fr).Find(`[data-invocation="`+inv.ID+`"]`).Length() > 0 {
			t.Fatalf("a call of another server was put in the filtered list: %s", fr.Data)
		}
		return fr.Event == views.DrawerEvent("demo") && fragment(t, fr).Find(`[data-invocation="`+inv.ID+`"]`).Length() > 0
	})
}
