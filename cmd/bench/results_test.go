package main

import (
	"strings"
	"testing"
)

// output is go test -bench output as the table's benchmarks print it, with
// the lines around results that the parser must skip.
const output = `goos: linux
goarch: amd64
pkg: github.com/switchboard-mcp/switchboard/cmd/switchboard
cpu: Intel(R) Xeon(R) CPU @ 2.20GHz
BenchmarkToolCall/direct-mcp-go-2         	     200	    190000 ns/op	       188.0 p50-µs	       412.5 p99-µs	    5120 B/op	      61 allocs/op
BenchmarkToolCall/switchboard-2           	     200	    840000 ns/op	       830.0 p50-µs	      2100 p99-µs	   40960 B/op	     512 allocs/op
BenchmarkToolCall/switchboard-32-concurrent-2         	     200	    300000 ns/op	      1500 p50-µs	      9000 p99-µs
BenchmarkStdioServersRSS
    rss_bench_test.go:40: 200 servers connected
BenchmarkStdioServersRSS-2	       1	2000000000 ns/op	        48.20 rss-MB
BenchmarkPageEventLatency/servers=200/pages=100-2         	     100	   3700000 ns/op
BenchmarkPageEventLatency/servers=200/pages=100-2         	     100	   9000000 ns/op
BenchmarkPageEventLatency/servers=200/pages=100-2         	     100	   4000000 ns/op
--- FAIL: BenchmarkBroken
PASS
ok  	github.com/switchboard-mcp/switchboard/cmd/switchboard	12.345s
`

func TestParseResults(t *testing.T) {
	rs := results{}
	if err := parseResults(strings.NewReader(output), 2, rs); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		m    metric
		want float64
	}{
		{"ns/op-kept-as-printed", metric{toolDirect, "ns/op"}, 190000},
		{"custom-metric", metric{toolDirect, "p50-µs"}, 188},
		{"fractional-custom-metric", metric{toolDirect, "p99-µs"}, 412.5},
		{"benchmem", metric{toolVia, "B/op"}, 40960},
		{"name-ending-in-a-number-keeps-it", metric{toolVia32, "p99-µs"}, 9000},
		{"result-after-log-lines", metric{stdioRSS, "rss-MB"}, 48.2},
		{"median-of-repeated-runs", metric{pageEvents100, "ns/op"}, 4000000},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, ok := rs.value(c.m)
			if !ok || got != c.want {
				t.Errorf("value(%v) = %v, %v; want %v, true", c.m, got, ok, c.want)
			}
		})
	}
	if _, ok := rs.value(metric{toolVia32, "p50-µs"}); !ok {
		t.Errorf("%s not read: its -32 must not be taken for GOMAXPROCS", toolVia32)
	}
	if _, ok := rs.value(metric{toolDirect32, "p50-µs"}); ok {
		t.Errorf("%s read, but it is not in the output", toolDirect32)
	}
	if _, ok := rs.value(metric{stdioRSS, "peak-RSS-MB"}); ok {
		t.Errorf("a unit the benchmark did not report was read")
	}
	if rs.ran("BenchmarkBroken") {
		t.Errorf("a FAIL line was read as a result")
	}
}

// TestParseResultsOneProc checks names when GOMAXPROCS is 1, where the
// testing package adds no suffix: "-32-concurrent" must stay whole.
func TestParseResultsOneProc(t *testing.T) {
	rs := results{}
	in := "BenchmarkToolCall/switchboard-32-concurrent \t 10\t 100 ns/op\t 7 p50-µs\n"
	if err := parseResults(strings.NewReader(in), 1, rs); err != nil {
		t.Fatal(err)
	}
	if got, ok := rs.value(metric{toolVia32, "p50-µs"}); !ok || got != 7 {
		t.Errorf("value = %v, %v; want 7, true (results: %v)", got, ok, rs)
	}
}

func TestMedianOfEven(t *testing.T) {
	rs := results{"B": {"x": {4, 1, 3, 2}}}
	if got, _ := rs.value(metric{"B", "x"}); got != 2.5 {
		t.Errorf("median = %v, want 2.5", got)
	}
}
