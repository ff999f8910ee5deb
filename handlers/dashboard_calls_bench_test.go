package handlers_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/handlers"
	"github.com/switchboard-mcp/switchboard/sqlite"
	"github.com/switchboard-mcp/switchboard/views"
)

// dashboardBenchCalls is how many calls the store holds: a team's day.
const dashboardBenchCalls = 1000

// BenchmarkDashboardThousandCalls measures what a person's first view of
// the dashboard costs with 1,000 calls in a real SQLite store: the page
// (gzipped, as a browser asks for it) and the page stream's first event,
// which fills the call list with the newest hundred rows. html-KB is the
// HTML of both before compression (1 KB = 1,000 bytes); wire-KB is what
// the two answers put on the network.
func BenchmarkDashboardThousandCalls(b *testing.B) {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	store := db.InvocationStore()
	const servers = 10
	seedBenchCalls(b, store, servers, dashboardBenchCalls)
	fleet := pageBenchFleet(b, servers, 12)
	svc := domain.NewInvocations(domain.InvocationsOptions{Caller: fleet, Catalog: fleet, Store: store})
	b.Cleanup(func() { _ = svc.Close(context.Background()) })
	done := make(chan struct{})
	b.Cleanup(func() { close(done) })
	e := handlers.New(handlers.Options{Fleet: fleet, Scope: testScope, Invocations: svc, Done: done,
		Heartbeat: time.Hour, Token: fixtureToken})

	var page, event []byte
	var pageEncoding string
	b.ReportAllocs()
	for b.Loop() {
		rec := getDashboardGzip(b, e)
		page, pageEncoding = rec.Body.Bytes(), rec.Header().Get("Content-Encoding")
		event = firstPageEvent(b, e)
	}
	b.StopTimer()

	html := page
	if pageEncoding == "gzip" {
		zr, err := gzip.NewReader(bytes.NewReader(page))
		if err != nil {
			b.Fatal(err)
		}
		if html, err = io.ReadAll(zr); err != nil {
			b.Fatal(err)
		}
	}
	if rows := strings.Count(string(event), `data-testid="call-row"`); rows != views.CallsLimit {
		b.Fatalf("the first event holds %d call rows, want %d", rows, views.CallsLimit)
	}
	b.ReportMetric(float64(len(html)+len(event))/1e3, "html-KB")
	b.ReportMetric(float64(len(page)+len(event))/1e3, "wire-KB")
}

// seedBenchCalls stores n finished calls spread over servers, one second
// apart, every tenth failed, as the list shows a real history.
func seedBenchCalls(b *testing.B, store *sqlite.InvocationStore, servers, n int) {
	b.Helper()
	at := time.Now().Add(-time.Duration(n) * time.Second)
	tools := []string{"search_issues", "read_file", "list_directory", "query", "fetch_url"}
	for i := range n {
		id := fmt.Sprintf("call-%05d", i)
		inv := domain.Invocation{ID: id, Scope: testScope, ServerName: fmt.Sprintf("server-%03d", i%servers),
			Tool: tools[i%len(tools)], Key: domain.CallKey{ConversationID: "c", MessageID: id, ToolCallID: id},
			Arguments: fmt.Appendf(nil, `{"query":"open issues labelled bug, page %d","limit":50}`, i),
			Source:    domain.SourceAPI, Status: domain.InvocationSuccess,
			StartedAt: at.Add(time.Duration(i) * time.Second), EndedAt: at.Add(time.Duration(i)*time.Second + 340*time.Millisecond)}
		if i%10 == 9 {
			inv.Status, inv.Error = domain.InvocationError, "upstream timed out after 30s"
		} else {
			inv.Result = fmt.Appendf(nil, `{"content":[{"type":"text","text":"%d results"}]}`, i)
		}
		if err := store.SaveInvocation(context.Background(), inv); err != nil {
			b.Fatal(err)
		}
	}
}

// firstPageEvent opens the page stream and returns what it writes first —
// the full state, the call list among it — then closes the stream.
func firstPageEvent(b *testing.B, h http.Handler) []byte {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req := authorize(httptest.NewRequestWithContext(ctx, http.MethodGet, handlers.PathPageEvents, nil))
	req.Host = "127.0.0.1:7391"
	w := &firstWriteRecorder{header: http.Header{}, cancel: cancel}
	h.ServeHTTP(w, req)
	if w.first == nil {
		b.Fatal("the page stream wrote nothing")
	}
	return w.first
}

// firstWriteRecorder keeps a stream's first write and then ends the
// stream by cancelling its request.
type firstWriteRecorder struct {
	header http.Header
	first  []byte
	cancel context.CancelFunc
}

func (w *firstWriteRecorder) Header() http.Header { return w.header }
func (w *firstWriteRecorder) WriteHeader(int)     {}
func (w *firstWriteRecorder) Flush()              {}
func (w *firstWriteRecorder) Write(p []byte) (int, error) {
	if w.first == nil {
		w.first = bytes.Clone(p)
		w.cancel()
	}
	return len(p), nil
}
