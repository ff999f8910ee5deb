package handlers_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
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
type streamWriter struct {
	header http.Header
	writes chan int
}

func (w *streamWriter) Header() http.Header { return w.header }
func (w *streamWriter) WriteHeader(int)     {}
func (w *streamWriter) Flush()              {}
func (w *streamWriter) Write(p []byte) (int, error) {
	w.writes <- len(p)
	return len(p), nil
}

// BenchmarkPageEventLatency measures the server-side time from a hub
// publish to the page event's bytes being written, on every open page.
func BenchmarkPageEventLatency(b *testing.B) {
	for _, servers := range []int{10, 200} {
		for _, pages := range []int{1, 100} {
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
					s := pageBenchStatus(i%servers, 12+i%2, now)
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
			req := authorize(httptest.NewRequest(http.MethodGet, handlers.PathDashboard, nil))
			req.Host = "127.0.0.1:7391"
			req.Header.Set("Accept-Encoding", "gzip")
			rec := httptest.NewRecorder()
			e.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK {
				b.Fatalf("GET /: %d", rec.Code)
			}
			n = rec.Body.Len()
		}
		b.ReportMetric(float64(n), "gzipB/page")
	})
}

var assetRE = regexp.MustCompile(`^/static/`)

// TestFirstLoadBytes reports what a first visit transfers (the page, its
// stylesheets and scripts), raw and gzipped, for the README's comparison
// with other dashboards. Run: go test -run FirstLoadBytes -v ./handlers/
func TestFirstLoadBytes(t *testing.T) {
	f := newFixture(t)
	f.attach(t, stdio("alpha"), stdio("beta"), stdio("gamma"))
	fetch := func(path string, gzip bool) (int, []byte, string) {
		t.Helper()
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, f.srv.URL+path, nil)
		authorize(req)
		if gzip {
			req.Header.Set("Accept-Encoding", "gzip")
		}
		tr := &http.Transport{DisableCompression: true}
		resp, err := (&http.Client{Transport: tr}).Do(req)
		if err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, body, resp.Header.Get("Content-Encoding")
	}
	_, page, _ := fetch(handlers.PathDashboard, false)
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	paths := []string{handlers.PathDashboard}
	doc.Find(`link[rel="stylesheet"], script[src]`).Each(func(_ int, s *goquery.Selection) {
		p := s.AttrOr("href", s.AttrOr("src", ""))
		if assetRE.MatchString(p) {
			paths = append(paths, p)
		}
	})
	var raw, zipped int
	var missing []string
	for _, p := range paths {
		status, body, _ := fetch(p, false)
		if status != http.StatusOK {
			missing = append(missing, p)
			continue
		}
		_, gz, enc := fetch(p, true)
		if enc != "gzip" && len(body) > 1024 {
			t.Errorf("%s: %d bytes sent without gzip", p, len(body))
		}
		t.Logf("%-40s %7d B raw %7d B gzip", p, len(body), len(gz))
		raw += len(body)
		zipped += len(gz)
	}
	t.Logf("first load: %d B raw, %d B gzip (%s)", raw, zipped, strings.Join(paths, " "))
	if len(missing) > 0 {
		t.Logf("not served yet: %v", missing)
	}
}
