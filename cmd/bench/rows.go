package main

// metric names one number a benchmark reports: the benchmark's full name
// without its -GOMAXPROCS suffix, and the unit as the benchmark printed it
// ("ns/op", "p50-µs", "gzip-KB", ...).
type metric struct {
	Bench string
	Unit  string
}

// row is one line of the table: a measure of issue #14 (or of the gateway
// issue), where its number comes from, and its target.
type row struct {
	// Name is the measure as the issue words it.
	Name string
	// Of is the metric shown; when Minus is set the row shows Of − Minus
	// (what Switchboard adds over a direct call).
	Of, Minus *metric
	// Scale turns the benchmark's unit into Unit, the unit shown (ns/op
	// times 1e-6 is ms).
	Scale float64
	Unit  string
	// Target is the bound the measure must meet; a zero Target means the
	// number is reported only.
	Target target
	// Signed says the number is an amount added to a baseline and is shown
	// with its sign.
	Signed bool
}

// The benchmarks the table reads. Their names are agreed in the team
// contract of issue #14: renaming one here or in a _test.go file makes its
// row "missing".
const (
	pageEvents100  = "BenchmarkPageEventLatency/servers=200/pages=100"
	pageEvents1000 = "BenchmarkPageEventLatency/servers=200/pages=1000"
	toolDirect     = "BenchmarkToolCall/direct-mcp-go"
	toolVia        = "BenchmarkToolCall/switchboard"
	toolDirect32   = "BenchmarkToolCall/direct-mcp-go-32-concurrent"
	toolVia32      = "BenchmarkToolCall/switchboard-32-concurrent"
	firstLoad      = "BenchmarkFirstLoad"
	result30MB     = "BenchmarkMemoryResult30MB"
	thousandCalls  = "BenchmarkDashboardThousandCalls"
	applyOne       = "BenchmarkApplyOneChange/servers=5000"
	stdioRSS       = "BenchmarkStdioServersRSS"
	pageRender     = "BenchmarkPageRender/views.Page"
	gatewayLegacy  = "BenchmarkGatewayCallLatency/legacy"
	gateway2026    = "BenchmarkGatewayCallLatency/2026-07-28"
	gatewayLoad    = "BenchmarkGatewayThroughput/sqlite-history"
)

const (
	nsToMS = 1e-6
	usToMS = 1e-3
)

// rows is the table, in the order it is printed.
var rows = []row{
	{Name: "a transition to its dashboard SSE bytes, 200 servers, 100 open pages",
		Of: &metric{pageEvents100, "ns/op"}, Scale: nsToMS, Unit: "ms", Target: atMost(1)},
	{Name: "the same, 200 servers, 1,000 open pages",
		Of: &metric{pageEvents1000, "ns/op"}, Scale: nsToMS, Unit: "ms", Target: atMost(10)},
	{Name: "`tools/call` added by Switchboard over a direct mcp-go call (stdio echo, p50)",
		Of: &metric{toolVia, "p50-µs"}, Minus: &metric{toolDirect, "p50-µs"}, Scale: usToMS, Unit: "ms",
		Target: atMost(0.2), Signed: true},
	{Name: "the same, p99",
		Of: &metric{toolVia, "p99-µs"}, Minus: &metric{toolDirect, "p99-µs"}, Scale: usToMS, Unit: "ms", Signed: true},
	{Name: "the same, 32 concurrent callers, p50",
		Of: &metric{toolVia32, "p50-µs"}, Minus: &metric{toolDirect32, "p50-µs"}, Scale: usToMS, Unit: "ms", Signed: true},
	{Name: "the same, 32 concurrent callers, p99",
		Of: &metric{toolVia32, "p99-µs"}, Minus: &metric{toolDirect32, "p99-µs"}, Scale: usToMS, Unit: "ms", Signed: true},
	{Name: "first page load, HTML + CSS + JS gzipped",
		Of: &metric{firstLoad, "gzip-KB"}, Scale: 1, Unit: "KB", Target: atMost(40)},
	{Name: "the same, brotli",
		Of: &metric{firstLoad, "br-KB"}, Scale: 1, Unit: "KB"},
	{Name: "peak RSS added by one 30 MB tool result",
		Of: &metric{result30MB, "peak-RSS-MB"}, Scale: 1, Unit: "MB", Target: atMost(120), Signed: true},
	{Name: "the dashboard with 1,000 stored calls",
		Of: &metric{thousandCalls, "ns/op"}, Scale: nsToMS, Unit: "ms", Target: atMost(10)},
	{Name: "the same, HTML size",
		Of: &metric{thousandCalls, "html-KB"}, Scale: 1e-3, // html-KB counts 1,000 bytes
		Unit: "MB", Target: atMost(1)},
	{Name: "one settings edit applied among 5,000 servers",
		Of: &metric{applyOne, "ns/op"}, Scale: nsToMS, Unit: "ms", Target: atMost(10)},
	{Name: "the same, collateral reconnects",
		Of: &metric{applyOne, "collateral-reconnects"}, Scale: 1, Target: atMost(0)},
	{Name: "RSS with 200 stdio servers connected (Switchboard's own process)",
		Of: &metric{stdioRSS, "rss-MB"}, Scale: 1, Unit: "MB", Target: atMost(60)},
	{Name: "the same, highest while idle for 30 s after",
		Of: &metric{stdioRSS, "idle-max-rss-MB"}, Scale: 1, Unit: "MB"},
	{Name: "the dashboard page with 200 servers × 200 tools",
		Of: &metric{pageRender, "ns/op"}, Scale: nsToMS, Unit: "ms", Target: atMost(5)},
	{Name: "gateway: `tools/call` added over a direct call (p50, legacy client)",
		Of: &metric{gatewayLegacy, "added-p50-µs"}, Scale: usToMS, Unit: "ms", Target: atMost(0.5), Signed: true},
	{Name: "the same, 2026-07-28 client",
		Of: &metric{gateway2026, "added-p50-µs"}, Scale: usToMS, Unit: "ms", Target: atMost(0.5), Signed: true},
	{Name: "gateway throughput, 32 clients, share of direct",
		Of: &metric{gatewayLoad, "gateway-%-of-direct"}, Scale: 1, Unit: "%", Target: atLeast(90)},
}

// metrics returns the metrics r reads.
func (r row) metrics() []metric {
	ms := []metric{*r.Of}
	if r.Minus != nil {
		ms = append(ms, *r.Minus)
	}
	return ms
}
