package mcpserver_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
	"github.com/switchboard-mcp/switchboard/mcpserver"
)

// BenchmarkGatewayListTools: tools/list through /mcp of 50 connected
// servers with 100 tools each (fake upstreams: only the gateway's work is
// measured). ns/op is one client's full listing.
func BenchmarkGatewayListTools(b *testing.B) {
	const servers, tools = 50, 100
	var caps domain.Capabilities
	for i := range tools {
		name := fmt.Sprintf("tool_%03d", i)
		schema := `{"type":"object","properties":{"path":{"type":"string","description":"Where"},"limit":{"type":"integer","minimum":1}},"required":["path"]}`
		caps.Tools = append(caps.Tools, domain.Tool{Name: name, Description: "Does thing " + name, InputSchema: []byte(schema),
			Raw: []byte(`{"name":"` + name + `","description":"Does thing ` + name + `","inputSchema":` + schema + `,"annotations":{"readOnlyHint":true}}`)})
	}
	conn := &domaintest.AutoConnector{Caps: caps}
	fleet := domain.NewFleet(domain.FleetOptions{SupervisorOptions: domain.SupervisorOptions{Connector: conn, Scope: scope}})
	b.Cleanup(func() { _ = fleet.Close(context.Background()) })
	var cfgs []domain.ServerConfig
	for i := range servers {
		cfgs = append(cfgs, domain.ServerConfig{Name: fmt.Sprintf("srv%02d", i), Transport: domain.TransportStdio, Command: "true", ConnectTimeout: time.Minute})
	}
	if err := fleet.Attach(context.Background(), cfgs); err != nil {
		b.Fatal(err)
	}
	eventually(b, func() bool {
		for _, st := range fleet.Hub().List() {
			if st.State != domain.StateConnected {
				return false
			}
		}
		return len(fleet.Hub().List()) == servers
	})
	inv := domain.NewInvocations(domain.InvocationsOptions{Caller: fleet, Catalog: fleet, Store: domaintest.NewInvocationStore()})
	gw := mcpserver.New(mcpserver.Options{Fleet: fleet, Invocations: inv, Scope: scope, Version: "bench"})
	srv := newGatewayServer(b, gw)
	for _, era := range []struct {
		name   string
		legacy bool
	}{{"legacy", true}, {"2026-07-28", false}} {
		b.Run(era.name, func(b *testing.B) {
			c := mustDial(b, srv+"/mcp", era.legacy)
			for b.Loop() {
				res, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
				if err != nil {
					b.Fatal(err)
				}
				if len(res.Tools) != servers*tools {
					b.Fatalf("listed %d tools, want %d", len(res.Tools), servers*tools)
				}
			}
		})
	}
	b.Run("raw-http", func(b *testing.B) {
		// The gateway's share alone: the response is read, not decoded.
		hc := &http.Client{}
		id := post(b, hc, srv+"/mcp", "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"`+legacyVersion+`","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`)
		post(b, hc, srv+"/mcp", id, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		var size int
		for b.Loop() {
			size = len(post(b, hc, srv+"/mcp", id, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`))
		}
		b.ReportMetric(float64(size), "response-bytes")
	})
	b.Run("in-process", func(b *testing.B) {
		// The gateway's work alone, without the network: the request is
		// served straight into a writer that only counts the bytes.
		hc := &http.Client{}
		id := post(b, hc, srv+"/mcp", "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"`+legacyVersion+`","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`)
		post(b, hc, srv+"/mcp", id, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		h := gw.Aggregated()
		cpu := processCPU()
		for b.Loop() {
			req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Mcp-Session-Id", id)
			req.Header.Set("Mcp-Protocol-Version", legacyVersion)
			w := &countingWriter{header: http.Header{}}
			h.ServeHTTP(w, req)
			if w.code != http.StatusOK || w.n < servers*tools*100 {
				b.Fatalf("got %d, %d bytes", w.code, w.n)
			}
		}
		b.ReportMetric(float64(processCPU()-cpu)/float64(time.Microsecond)/float64(b.N), "cpu-µs/op")
	})
	b.Run("refresh", func(b *testing.B) {
		// Rebuilding every list after a change (a reload, a reconnect).
		cpu := processCPU()
		for b.Loop() {
			gw.Refresh()
		}
		b.ReportMetric(float64(processCPU()-cpu)/float64(time.Microsecond)/float64(b.N), "cpu-µs/op")
	})
}

// countingWriter is an http.ResponseWriter that keeps only the status
// and the number of bytes written.
type countingWriter struct {
	header http.Header
	code   int
	n      int
}

func (w *countingWriter) Header() http.Header { return w.header }
func (w *countingWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
}

func (w *countingWriter) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	w.n += len(p)
	return len(p), nil
}

func (w *countingWriter) Flush() {}
