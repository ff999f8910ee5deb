package handlers_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
	"github.com/switchboard-mcp/switchboard/handlers"
	"github.com/switchboard-mcp/switchboard/locales"
	"github.com/switchboard-mcp/switchboard/views"
)

// benchFleet is a fleet without supervisors whose hub the benchmark
// publishes to directly, so only the handlers' work is measured.
func pageBenchFleet(tb testing.TB, servers, tools int) *domain.Fleet {
	tb.Helper()
	fleet := domain.NewFleet(domain.FleetOptions{SupervisorOptions: domain.SupervisorOptions{
		Connector: domaintest.NewConnector(), Store: domaintest.NewStore(), Clock: domaintest.NewClock(time.Now()),
		Scope: domain.Scope{User: domain.LocalUser, Workspace: "bench"},
	}})
	tb.Cleanup(func() { _ = fleet.Close(context.Background()) })
	now := time.Now()
	for i := range servers {
		fleet.Hub().Publish(pageBenchStatus(i, tools, now))
	}
	return fleet
}

func pageBenchStatus(i, tools int, now time.Time) domain.Status {
	return domain.Status{
		ServerName: fmt.Sprintf("server-%03d", i), Transport: domain.TransportStdio, Target: "npx -y @example/server",
		State: domain.StateConnected, Phase: domain.PhaseConnected, ToolCount: tools, ResourceCount: 3, PromptCount: 2,
		ConnectedAt: now, LastSyncAt: now, HasLatency: true, Latency: 1200 * time.Microsecond, ProtocolVersion: "2025-11-25",
		AutoReconnect: true, KeepAlive: 30 * time.Second,
	}
}

// streamWriter is an http.ResponseWriter that reports each write, so the
// benchmark sees the moment the handler hands an event to the network.
// Empty writes (a wake-up that changed nothing the page shows, such as the
// subscription's initial snapshots) are not reported: they carry no event.
type streamWriter struct {
	header http.Header
	writes chan int
}

func (w *streamWriter) Header() http.Header { return w.header }
func (w *streamWriter) WriteHeader(int)     {}
func (w *streamWriter) Flush()              {}
func (w *streamWriter) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	w.writes <- len(p)
	return len(p), nil
}

// BenchmarkPageEventLatency measures the server-side time from a hub
// publish to the page event's bytes being written, on every open page. The
// 1,000-page case shows whether the cost stays linear in open pages.
func BenchmarkPageEventLatency(b *testing.B) {
	for _, servers := range []int{10, 200} {
		for _, pages := range []int{1, 100, 1000} {
			if pages == 1000 && servers != 200 {
				continue // the 1,000-page row is a team's dashboard, 200 servers
			}
			b.Run(fmt.Sprintf("servers=%d/pages=%d", servers, pages), func(b *testing.B) {
				fleet := pageBenchFleet(b, servers, 12)
				done := make(chan struct{})
				e := handlers.New(handlers.Options{Fleet: fleet, Done: done, Heartbeat: time.Hour, Token: fixtureToken})
				writers := make([]*streamWriter, pages)
				var wg sync.WaitGroup
				for i := range writers {
					w := &streamWriter{header: http.Header{}, writes: make(chan int, 1)}
					writers[i] = w
					req := authorize(httptest.NewRequest(http.MethodGet, handlers.PathPageEvents, nil))
					req.Host = "127.0.0.1:7391"
					wg.Add(1)
					go func() { defer wg.Done(); e.ServeHTTP(w, req) }()
					<-w.writes // the full state
				}
				b.Cleanup(func() {
					close(done)
					for _, w := range writers {
						go func() {
							for range w.writes {
							}
						}()
					}
					wg.Wait()
				})
				now := time.Now()
				var bytes int
				b.ResetTimer()
				for i := range b.N {
					// 13 first: the setup published 12, and an unchanged
					// snapshot would be an empty write even at -benchtime 1x.
					s := pageBenchStatus(i%servers, 12+(i+1)%2, now)
					fleet.Hub().Publish(s)
					for _, w := range writers {
						bytes += <-w.writes
					}
				}
				b.ReportMetric(float64(bytes)/float64(b.N*pages), "B/event")
			})
		}
	}
}

// BenchmarkPageRender renders the dashboard of 200 servers with 200 tools
// each: the template alone, and the whole handler (hub list, negotiation,
// render, gzip).
func BenchmarkPageRender(b *testing.B) {
	fleet := pageBenchFleet(b, 200, 200)
	b.Run("views.Page", func(b *testing.B) {
		cat, err := locales.Load()
		if err != nil {
			b.Fatal(err)
		}
		ctx := locales.WithLocalizer(context.Background(), cat.Localizer("en"))
		list := fleet.Hub().List()
		var buf bytes.Buffer
		b.ReportAllocs()
		for b.Loop() {
			buf.Reset()
			p := views.NewPageProps(views.PageInput{List: list, Now: time.Now(), URLs: views.PageURLs{Drawer: func(n string) string { return "/ui/servers/" + n + "/drawer" }}})
			if err := views.Page(p).Render(ctx, &buf); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(buf.Len()), "B/page")
	})
	b.Run("handler", func(b *testing.B) {
		e := handlers.New(handlers.Options{Fleet: fleet, Token: fixtureToken})
		b.ReportAllocs()
		var n int
		for b.Loop() {
			n = getDashboardGzip(b, e).Body.Len()
		}
		b.ReportMetric(float64(n), "gzipB/page")
	})
}

// hashedAssetRE matches a content-hashed asset's address.
var hashedAssetRE = regexp.MustCompile(`^/static/[a-z0-9.-]+\.[0-9a-f]{12}\.(css|js)$`)

// firstLoadPart is one response of a first visit: what went over the
// wire to a gzip-only client and to one that accepts brotli too.
type firstLoadPart struct {
	path     string
	raw      int
	gzip, br int
}

// firstLoad fetches the dashboard the way a first visit does, then each
// stylesheet and script it names, and checks every asset is served under
// a hashed name for good.
func firstLoad(tb testing.TB, e http.Handler) []firstLoadPart {
	tb.Helper()
	get := func(path, encoding string) *httptest.ResponseRecorder {
		req := authorize(httptest.NewRequest(http.MethodGet, path, nil))
		req.Host = "127.0.0.1:7391"
		if encoding != "" {
			req.Header.Set("Accept-Encoding", encoding)
		}
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			tb.Fatalf("GET %s: %d", path, rec.Code)
		}
		return rec
	}
	page := get(handlers.PathDashboard, "")
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(page.Body.Bytes()))
	if err != nil {
		tb.Fatal(err)
	}
	parts := []firstLoadPart{{path: handlers.PathDashboard, raw: page.Body.Len(),
		gzip: get(handlers.PathDashboard, "gzip").Body.Len(), br: get(handlers.PathDashboard, "br, gzip").Body.Len()}}
	doc.Find(`link[rel="stylesheet"], script[src]`).Each(func(_ int, s *goquery.Selection) {
		p := s.AttrOr("href", s.AttrOr("src", ""))
		if !hashedAssetRE.MatchString(p) {
			tb.Errorf("%s: not a content-hashed asset", p)
			return
		}
		plain, gz, br := get(p, ""), get(p, "gzip"), get(p, "br, gzip")
		for _, rec := range []*httptest.ResponseRecorder{plain, gz, br} {
			if got := rec.Header().Get("Cache-Control"); got != "public, max-age=31536000, immutable" {
				tb.Errorf("%s: Cache-Control %q, want immutable for a year", p, got)
			}
			if got := rec.Header().Get("Vary"); got != "Accept-Encoding" {
				tb.Errorf("%s: Vary %q, want Accept-Encoding", p, got)
			}
		}
		if gz.Header().Get("Content-Encoding") != "gzip" || br.Header().Get("Content-Encoding") != "br" {
			tb.Errorf("%s: encodings %q and %q, want gzip and br", p, gz.Header().Get("Content-Encoding"), br.Header().Get("Content-Encoding"))
		}
		parts = append(parts, firstLoadPart{path: p, raw: plain.Body.Len(), gzip: gz.Body.Len(), br: br.Body.Len()})
	})
	return parts
}

// firstLoadFleet is the page the first-load numbers are taken on: three
// servers, as in the README's comparison with other dashboards.
func firstLoadFleet(tb testing.TB) http.Handler {
	return handlers.New(handlers.Options{Fleet: pageBenchFleet(tb, 3, 5), Token: fixtureToken})
}

// TestFirstLoadAssets: every stylesheet and script of a first visit is
// reachable under a content-hashed name, cached for good, and sent
// compressed. Run with -v for the sizes, or see BenchmarkFirstLoad.
func TestFirstLoadAssets(t *testing.T) {
	var raw, gz, br int
	for _, p := range firstLoad(t, firstLoadFleet(t)) {
		t.Logf("%-45s %7d B raw %7d B gzip %7d B br", p.path, p.raw, p.gzip, p.br)
		raw, gz, br = raw+p.raw, gz+p.gzip, br+p.br
	}
	t.Logf("first load: %d B raw, %d B gzip, %d B br", raw, gz, br)
}

// BenchmarkFirstLoad reports what a first visit transfers, the page and
// the stylesheets and scripts it names (the drawer's script comes with
// the first drawer): gzip-KB to a gzip-only client, br-KB to one that
// accepts brotli (the page itself is gzipped either way). 1 KB = 1000 B.
func BenchmarkFirstLoad(b *testing.B) {
	e := firstLoadFleet(b)
	var gz, br int
	for b.Loop() {
		gz, br = 0, 0
		for _, p := range firstLoad(b, e) {
			gz, br = gz+p.gzip, br+p.br
		}
	}
	b.ReportMetric(float64(gz)/1000, "gzip-KB")
	b.ReportMetric(float64(br)/1000, "br-KB")
}

// getDashboardGzip asks for the dashboard as a browser does, gzip
// accepted, and fails unless it is served.
func getDashboardGzip(b *testing.B, e http.Handler) *httptest.ResponseRecorder {
	b.Helper()
	req := authorize(httptest.NewRequest(http.MethodGet, handlers.PathDashboard, nil))
	req.Host = "127.0.0.1:7391"
	req.Header.Set("Accept-Encoding", "gzip")
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		b.Fatalf("GET /: %d", rec.Code)
	}
	return rec
}
