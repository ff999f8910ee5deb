package handlers

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/locales"
	"github.com/switchboard-mcp/switchboard/views"
)

// cachePages runs pageEvents on a hub the test publishes to, with a
// clock that stands still, and opens pages whose every write the test
// reads.
type cachePages struct {
	t   *testing.T
	hub *domain.Hub
	p   *pageEvents
	e   *echo.Echo
	cat *locales.Catalog
	now time.Time
}

func newCachePages(t *testing.T) *cachePages {
	t.Helper()
	cat, err := locales.Load()
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
	hub := domain.NewHub()
	p := &pageEvents{hub: hub, heartbeat: time.Hour, now: func() time.Time { return now },
		prefs: &preferences{catalog: cat, log: slog.New(slog.DiscardHandler)}}
	e := echo.New()
	e.GET("/events", p.stream)
	return &cachePages{t: t, hub: hub, p: p, e: e, cat: cat, now: now}
}

// pageWrites is an open page: each write the stream makes, in order. A
// write waits until the test reads it, so a page the test does not read
// is a slow page.
type pageWrites chan []byte

func (w pageWrites) Header() http.Header { return http.Header{} }
func (w pageWrites) WriteHeader(int)     {}
func (w pageWrites) Flush()              {}
func (w pageWrites) Write(p []byte) (int, error) {
	w <- bytes.Clone(p)
	return len(p), nil
}

// open opens a page in lang and returns it after its full state.
func (c *cachePages) open(lang string) pageWrites {
	c.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req := httptest.NewRequestWithContext(ctx, http.MethodGet, "/events", nil)
	req.Header.Set("Accept-Language", lang)
	w := make(pageWrites)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); c.e.ServeHTTP(w, req) }()
	c.t.Cleanup(func() {
		cancel()
		go func() {
			for range w {
			}
		}()
		wg.Wait()
		close(w)
	})
	c.next(w)
	return w
}

// next returns the page's next write that is not empty (a batch of
// snapshots the page already had writes nothing), failing after a long
// wait.
func (c *cachePages) next(w pageWrites) []byte {
	c.t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case b := <-w:
			if len(b) > 0 {
				return b
			}
		case <-timeout:
			c.t.Fatal("no write from the page in 10 s")
			return nil
		}
	}
}

func (c *cachePages) publish(name string, tools int) domain.Status {
	return c.hub.Publish(domain.Status{ServerName: name, Transport: domain.TransportStdio, Target: "npx -y @example/" + name,
		State: domain.StateConnected, Phase: domain.PhaseConnected, ToolCount: tools, ConnectedAt: c.now.Add(-time.Minute)})
}

// perPage renders what the stream sent before the shared cache: each page
// rendering its own update with the summary of shown, then the drawer
// header, in lang.
func (c *cachePages) perPage(lang string, st domain.Status, shown map[string]domain.Status) []byte {
	c.t.Helper()
	ctx := views.WithProbeSource(choice{loc: c.cat.Localizer(lang), preset: views.NormalPreset("")}.context(context.Background()), nil)
	var out, html bytes.Buffer
	u := views.NewServerUpdateProps(st, c.now, drawerURL(st.ServerName)).WithSummary(shown)
	if err := appendHTMLEvent(ctx, &out, &html, sseEvent, views.ServerUpdate(u)); err != nil {
		c.t.Fatal(err)
	}
	drawer := templ.Join(views.DrawerHeader(views.NewDrawerHeaderProps(st), true),
		views.DrawerActions(views.NewDrawerActionsProps(st, drawerURLs(st.ServerName)), true))
	if err := appendHTMLEvent(ctx, &out, &html, views.DrawerEvent(st.ServerName), drawer); err != nil {
		c.t.Fatal(err)
	}
	return out.Bytes()
}

func TestPagesInOneLanguageShareOneRender(t *testing.T) {
	c := newCachePages(t)
	alpha := c.publish("alpha", 1)
	beta := c.publish("beta", 2)
	en1, en2, pt := c.open("en"), c.open("en"), c.open("pt-BR")
	before := c.p.fragments.renders.Load()

	alpha = c.publish("alpha", 7)
	got1, got2, gotPT := c.next(en1), c.next(en2), c.next(pt)

	if !bytes.Equal(got1, got2) {
		t.Errorf("two pages in English got different bytes:\n%s\n----\n%s", got1, got2)
	}
	if bytes.Equal(got1, gotPT) {
		t.Error("the Portuguese page got the English bytes")
	}
	if n := c.p.fragments.renders.Load() - before; n != 4 {
		t.Errorf("renders: got %d, want 4 (row with summary and drawer header, in two languages)", n)
	}
	shown := map[string]domain.Status{"alpha": alpha, "beta": beta}
	if want := c.perPage("en", alpha, shown); !bytes.Equal(got1, want) {
		t.Errorf("English page: got\n%s\nwant what the page rendered itself\n%s", got1, want)
	}
	if want := c.perPage("pt-BR", alpha, shown); !bytes.Equal(gotPT, want) {
		t.Errorf("Portuguese page: got\n%s\nwant what the page rendered itself\n%s", gotPT, want)
	}
}

var toolsRE = regexp.MustCompile(`(\d+) tools`)

// toolCounts returns the tool counts a write shows, each once, in order:
// a row says its count in its badge, tooltip and cell.
func toolCounts(b []byte) []int {
	var out []int
	for _, m := range toolsRE.FindAllSubmatch(b, -1) {
		n, _ := strconv.Atoi(string(m[1]))
		if len(out) == 0 || out[len(out)-1] != n {
			out = append(out, n)
		}
	}
	return out
}

func TestSlowPageGetsTheNewestSnapshot(t *testing.T) {
	c := newCachePages(t)
	c.publish("alpha", 1)
	fast, slow := c.open("en"), c.open("en")
	var last []byte
	for tools := 2; tools <= 5; tools++ {
		c.publish("alpha", tools)
		last = c.next(fast)
	}
	// The slow page read nothing while four snapshots were published: it
	// may have sent the first before it was held up, then the newest.
	var got []int
	var tail []byte
	for len(got) == 0 || got[len(got)-1] != 5 {
		tail = c.next(slow)
		got = append(got, toolCounts(tail)...)
	}
	for i := 1; i < len(got); i++ {
		if got[i] < got[i-1] {
			t.Errorf("slow page went back from %d to %d tools: %v", got[i-1], got[i], got)
		}
	}
	if len(got) > 2 {
		t.Errorf("slow page got %v, want at most the first snapshot and the newest (coalesced)", got)
	}
	if !bytes.Equal(tail, last) {
		t.Errorf("slow page's newest event differs from the fast page's:\n%s\n----\n%s", tail, last)
	}
}

func TestRenderCacheKeepsFailuresOut(t *testing.T) {
	var c pageRenderCache
	key := renderKey{kind: fragmentDrawer, server: "alpha", version: 1, lang: "en"}
	failing := func() (string, templ.Component) {
		return "x", templ.ComponentFunc(func(context.Context, io.Writer) error { return errors.New("boom") })
	}
	if _, err := c.event(context.Background(), key, failing); err == nil {
		t.Fatal("a failing render: got no error")
	}
	ok := func() (string, templ.Component) { return "x", templ.Raw("<p>ok</p>") }
	got, err := c.event(context.Background(), key, ok)
	if err != nil || string(got) != "event: x\ndata: <p>ok</p>\n\n" {
		t.Errorf("after a failure: got %q, %v; want the event rendered afresh", got, err)
	}
}

func TestRenderCacheIsBounded(t *testing.T) {
	var c pageRenderCache
	render := func() (string, templ.Component) { return "x", templ.Raw("<p>row</p>") }
	for v := range 5 * renderCacheEntries {
		if _, err := c.event(context.Background(), renderKey{kind: fragmentRow, server: "alpha", version: uint64(v)}, render); err != nil {
			t.Fatal(err)
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if n := len(c.current) + len(c.retired); n > 2*renderCacheEntries {
		t.Errorf("entries: got %d, want at most %d", n, 2*renderCacheEntries)
	}
	if _, ok := c.current[renderKey{kind: fragmentRow, server: "alpha", version: uint64(5*renderCacheEntries - 1)}]; !ok {
		t.Error("the newest entry is not kept")
	}
}

func TestRenderCacheRendersOnceForConcurrentPages(t *testing.T) {
	var c pageRenderCache
	key := renderKey{kind: fragmentRow, server: "alpha", version: 1, lang: "en"}
	release := make(chan struct{})
	render := func() (string, templ.Component) {
		return "x", templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
			<-release
			_, err := fmt.Fprint(w, "<p>row</p>")
			return err
		})
	}
	var wg sync.WaitGroup
	got := make([][]byte, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], _ = c.event(context.Background(), key, render)
		}()
	}
	close(release)
	wg.Wait()
	if n := c.renders.Load(); n != 1 {
		t.Errorf("renders: got %d, want 1", n)
	}
	for i := range got {
		if string(got[i]) != "event: x\ndata: <p>row</p>\n\n" {
			t.Errorf("page %d: got %q", i, got[i])
		}
	}
}
