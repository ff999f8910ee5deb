package handlers_test

import (
	"bufio"
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
	"github.com/switchboard-mcp/switchboard/handlers"
	"github.com/switchboard-mcp/switchboard/views"
)

// openPageEvents opens the page's HTML event stream with header. It reads
// frames like openEvents does for the JSON stream.
func (f *fixture) openPageEvents(t *testing.T, header http.Header) *sseStream {
	t.Helper()
	return f.openPageEventsAt(t, handlers.PathPageEvents, header)
}

// openPageEventsAt opens the page stream at path, which may carry the
// call list's filters as the page's address gives them.
func (f *fixture) openPageEventsAt(t *testing.T, path string, header http.Header) *sseStream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, f.srv.URL+path, nil)
	if err != nil {
		t.Fatalf("new request: %v", err)
	}
	for k, vs := range header {
		req.Header[k] = vs
	}
	resp, err := f.srv.Client().Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		t.Fatalf("GET %s: status %d, want 200", path, resp.StatusCode)
	}
	s := &sseStream{header: resp.Header, frames: make(chan sseFrame), cancel: cancel}
	go func() {
		defer close(s.frames)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 64<<10), 16<<20)
		var fr sseFrame
		var raw []string
		for sc.Scan() {
			line := sc.Text()
			if line == "" {
				if raw == nil {
					continue
				}
				fr.Raw = strings.Join(raw, "\n")
				select {
				case s.frames <- fr:
				case <-ctx.Done():
					return
				}
				fr, raw = sseFrame{}, nil
				continue
			}
			raw = append(raw, line)
			field, value, _ := strings.Cut(line, ":")
			value = strings.TrimPrefix(value, " ")
			switch field {
			case "":
				fr.Comment = value
			case "event":
				fr.Event = value
			case "data":
				if fr.Data != "" {
					fr.Data += "\n"
				}
				fr.Data += value
			}
		}
	}()
	return s
}

// fragment parses a frame's data as htmx does: as template content.
func fragment(t *testing.T, fr sseFrame) *goquery.Document {
	t.Helper()
	if fr.Event != "status" && !strings.HasPrefix(fr.Event, "drawer-") && !strings.HasPrefix(fr.Event, "call-") {
		t.Fatalf("event: got %q, want status, drawer-<key> or call-<id>; frame %q", fr.Event, fr.Raw)
	}
	for _, line := range strings.Split(fr.Raw, "\n") {
		if !strings.HasPrefix(line, "event: ") && !strings.HasPrefix(line, "data: ") {
			t.Fatalf("frame line %q is neither event nor data", line)
		}
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader("<template>" + fr.Data + "</template>"))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func isFullState(doc *goquery.Document) bool {
	return doc.Find(`#header-summary[hx-swap-oob]`).Length() == 1 && doc.Find(`#server-list[hx-swap-oob]`).Length() == 1
}

func TestPageEventsStartWithFullState(t *testing.T) {
	f := newFixture(t)
	f.connect(t, stdio("alpha"), domain.Capabilities{Tools: []domain.Tool{{Name: "a"}}})
	f.attach(t, stdio("beta"))

	s := f.openPageEvents(t, http.Header{"Accept-Language": {"pt-BR"}})
	if got := s.header.Get("Content-Type"); got != "text/event-stream" {
		t.Errorf("Content-Type: got %q, want text/event-stream", got)
	}
	if got := s.header.Get("Content-Encoding"); got != "" {
		t.Errorf("Content-Encoding: got %q, want none on an event stream", got)
	}
	doc := fragment(t, s.next(t))
	if !isFullState(doc) {
		t.Fatalf("first event is not the full state: %s", doc.Text())
	}
	if got := doc.Find(`#server-list [data-testid="status-chip"]`).Length(); got != 2 {
		t.Errorf("list chips: got %d, want 2", got)
	}
	if got := doc.Find(`#header-summary #summary-all .sum-long`).Text(); got != "2 servidores" {
		t.Errorf("summary: got %q, want the Portuguese %q", got, "2 servidores")
	}
	if got := doc.Find(`#server-list [data-server="alpha"] [data-testid="chip-badge"]`).Text(); got != "1 ferramenta" {
		t.Errorf("alpha badge: got %q, want the Portuguese %q", got, "1 ferramenta")
	}
	if got := doc.Find(`[data-testid="server-row"]`).Length(); got != 2 {
		t.Errorf("rows: got %d, want 2", got)
	}
	if got, _ := doc.Find(`#server-list [data-server="alpha"] [data-testid="chip-button"]`).Attr("hx-get"); got != "/ui/servers/alpha/drawer" {
		t.Errorf("chip button hx-get: got %q", got)
	}
}

func TestPageEventsEmptyFleetStillStartsWithFullState(t *testing.T) {
	f := newFixture(t)
	doc := fragment(t, f.openPageEvents(t, nil).next(t))
	if !isFullState(doc) || doc.Find(`[data-testid="no-servers"]`).Length() != 1 {
		t.Errorf("first event of an empty fleet: got %q, want the full state saying there are no servers", doc.Text())
	}
}

// TestPageEventsHealErrorInOneSwap walks error -> connecting -> connected
// and checks that the swap saying connected carries no trace of the error
// (a connect clears every error), in the row's chip and the summary alike.
func TestPageEventsHealErrorInOneSwap(t *testing.T) {
	f := newFixture(t)
	f.attach(t, stdio("flaky"))
	s := f.openPageEvents(t, http.Header{"Accept-Language": {"en"}})
	fragment(t, s.next(t)) // full state
	key := views.ServerKey("flaky")

	f.conn.Next(t).Fail(&domain.ConnError{Category: domain.CategoryRefused, Err: errors.New("connection refused")})
	fr, _ := s.until(t, "an error swap", func(fr sseFrame) bool {
		return fragment(t, fr).Find(`#chip-r-`+key+`[data-state="error"]`).Length() == 1
	})
	doc := fragment(t, fr)
	if isFullState(doc) {
		t.Errorf("a transition of a known server sent the full state")
	}
	chip := doc.Find("#chip-r-" + key)
	if got, _ := doc.Find("#row-" + key).Attr("hx-swap-oob"); got != "outerHTML" {
		t.Errorf("row hx-swap-oob: got %q, want outerHTML", got)
	}
	if got := doc.Find(`#header-summary[hx-swap-oob] #summary-failing .sum-long`).Text(); got != "1 failing" {
		t.Errorf("summary: got %q, want 1 failing", got)
	}
	if got := chip.Find(`[data-testid="chip-badge"]`).Text(); got != "error: refused" {
		t.Errorf("badge: got %q, want error: refused", got)
	}
	if got := doc.Find("#row-" + key + ` [data-testid="tooltip-error"]`).Length(); got != 1 {
		t.Errorf("row tooltip errors: got %d, want 1", got)
	}
	if _, ok := chip.Find(`[data-testid="tooltip-retry"]`).Attr("data-deadline"); !ok {
		t.Errorf("a retryable error has no countdown")
	}

	f.clock.WaitForTimer(t, time.Second)
	f.clock.Advance(time.Second)
	f.conn.Next(t).Succeed(domaintest.NewSession(domain.Capabilities{Tools: []domain.Tool{{Name: "a"}, {Name: "b"}}}))
	fr, _ = s.until(t, "a connected swap", func(fr sseFrame) bool {
		return fragment(t, fr).Find(`#chip-r-`+key+`[data-state="connected"]`).Length() == 1
	})
	doc = fragment(t, fr)
	for _, sel := range []string{`[data-state="error"]`, `.dot-error`, `[data-testid="tooltip-error"]`, `[data-testid="tooltip-category"]`,
		`[data-testid="tooltip-last-error-at"]`, `[data-testid="tooltip-retry"]`} {
		if n := doc.Find("#row-" + key).Find(sel).Length(); n != 0 {
			t.Errorf("connected swap still has %d × %s", n, sel)
		}
	}
	if got := doc.Find("#row-" + key + ` [data-testid="row-counts"]`).Text(); !strings.Contains(got, "2 tools") {
		t.Errorf("row counts: got %q, want 2 tools", got)
	}
	if got := doc.Find(`#summary-failing .sum-long`).Text(); got != "0 failing" {
		t.Errorf("summary after the reconnect: got %q, want 0 failing", got)
	}

	// The open drawer's header follows from the same snapshot, as the
	// server's own drawer event.
	fr = s.next(t)
	if want := views.DrawerEvent("flaky"); fr.Event != want {
		t.Fatalf("event after the swap: got %q, want %q", fr.Event, want)
	}
	header := fragment(t, fr).Find("#drawer-header-" + key)
	if got, _ := header.Attr("data-state"); got != "connected" {
		t.Errorf("drawer header state: got %q, want connected", got)
	}
	if got, _ := header.Attr("hx-swap-oob"); got != "outerHTML" {
		t.Errorf("drawer header hx-swap-oob: got %q, want outerHTML", got)
	}
	// So do its actions, versioned so that a live reload that crossed
	// this snapshot cannot bring the error's actions back.
	actions := fragment(t, fr).Find(`[data-testid="drawer-actions"]`)
	state, _ := actions.Attr("data-state")
	version, _ := actions.Attr("data-version")
	if hv, _ := header.Attr("data-version"); state != "connected" || version == "" || version != hv {
		t.Errorf("drawer actions: state %q version %q, want connected at the header's version %q", state, version, hv)
	}
}

func TestPageEventsFullStateWhenServersChange(t *testing.T) {
	f := newFixture(t)
	f.connect(t, stdio("alpha"), domain.Capabilities{})
	f.connect(t, stdio("beta"), domain.Capabilities{})
	s := f.openPageEvents(t, nil)
	fragment(t, s.next(t))

	if err := f.fleet.Remove(t.Context(), "alpha"); err != nil {
		t.Fatalf("remove: %v", err)
	}
	fr, _ := s.until(t, "a full state without alpha", func(fr sseFrame) bool { return isFullState(fragment(t, fr)) })
	doc := fragment(t, fr)
	if doc.Find(`[data-server="alpha"]`).Length() != 0 {
		t.Errorf("the full state after a removal still shows alpha")
	}
	if doc.Find(`[data-testid="server-row"][data-server="beta"]`).Length() != 1 {
		t.Errorf("the full state after a removal lost beta")
	}

	f.attach(t, stdio("gamma"))
	fr, _ = s.until(t, "a full state with gamma", func(fr sseFrame) bool { return isFullState(fragment(t, fr)) })
	if fragment(t, fr).Find(`#server-list [data-testid="server-row"][data-server="gamma"]`).Length() != 1 {
		t.Errorf("the full state after an addition lacks gamma")
	}
}

// TestPageEventsSplitEveryLineBreak sends an error text holding CR, LF and
// CRLF: each must start a new data line, or the text could end the data
// and smuggle its own SSE fields into the stream.
func TestPageEventsSplitEveryLineBreak(t *testing.T) {
	f := newFixture(t)
	f.attach(t, stdio("evil"))
	s := f.openPageEvents(t, nil)
	fragment(t, s.next(t))
	f.conn.Next(t).Fail(&domain.ConnError{Category: domain.CategoryProtocol,
		Err: errors.New("one\rid: 99\r\nevent: x\ndata: <b>two</b>")})
	fr, _ := s.until(t, "the error swap", func(fr sseFrame) bool { return strings.Contains(fr.Data, "tooltip-error") })
	if fr.ID != "" || fr.Event != "status" {
		t.Errorf("the error text set fields: id %q event %q", fr.ID, fr.Event)
	}
	doc := fragment(t, fr) // also checks every line is a data line
	if doc.Find("b").Length() != 0 {
		t.Errorf("the error text became markup")
	}
	got := doc.Find(`[data-testid="tooltip-error"] .tip-value`).First().Text()
	if want := "protocol: one\nid: 99\nevent: x\ndata: <b>two</b>"; got != want {
		t.Errorf("error text: got %q, want %q", got, want)
	}
}

func TestPageEventsHeartbeatAndShutdown(t *testing.T) {
	f := newFixture(t, func(o *handlers.Options) { o.Heartbeat = 20 * time.Millisecond })
	s := f.openPageEvents(t, nil)
	fragment(t, s.next(t))
	if fr := s.next(t); fr.Raw != ": ping" {
		t.Errorf("idle frame: got %q, want %q", fr.Raw, ": ping")
	}
	f.shutdown()
	s.waitEnded(t)
}

func TestPageEventsUseStoredLanguage(t *testing.T) {
	store := newPrefStore()
	store.set("lang", "zh-Hans")
	f := newFixture(t, func(o *handlers.Options) { o.Preferences = store })
	f.connect(t, stdio("alpha"), domain.Capabilities{})
	doc := fragment(t, f.openPageEvents(t, http.Header{"Accept-Language": {"pt-BR"}}).next(t))
	if got := doc.Find(`#server-list [data-testid="chip-badge"]`).Text(); got != "0 个工具" {
		t.Errorf("badge: got %q, want the stored language's %q", got, "0 个工具")
	}
}
