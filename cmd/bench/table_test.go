package main

import (
	"strings"
	"testing"
)

func TestWriteTable(t *testing.T) {
	latency := row{Name: "added p50", Of: &metric{"BenchmarkVia", "p50-µs"}, Minus: &metric{"BenchmarkDirect", "p50-µs"},
		Scale: usToMS, Unit: "ms", Target: atMost(0.2), Signed: true}
	share := row{Name: "share", Of: &metric{"BenchmarkLoad", "pct"}, Scale: 1, Unit: "%", Target: atLeast(90)}
	size := row{Name: "brotli", Of: &metric{"BenchmarkFirstLoad", "br-KB"}, Scale: 1, Unit: "KB"}
	outcomes := []outcome{
		{Row: latency, Status: statusFail, Value: 0.65, Of: 0.84, Minus: 0.19},
		{Row: share, Status: statusFail, Value: 26.4},
		{Row: size, Status: statusReported, Value: 31.25},
		{Row: size, Status: statusMissing},
	}
	var b strings.Builder
	if err := writeTable(&b, outcomes, "Measured on a test.", true); err != nil {
		t.Fatal(err)
	}
	want := `| measure | measured | target | result |
|---|---|---|---|
| added p50 | +0.65 ms (0.84 − 0.19) | ≤ +0.20 ms | FAIL |
| share | 26.4 % | ≥ 90 % | FAIL |
| brotli | 31.2 KB | — | — |
| brotli | missing | — | missing |

Smoke run: each benchmark ran once, so the numbers say only that it still runs.

Measured on a test.
`
	if got := b.String(); got != want {
		t.Errorf("table:\n%s\nwant:\n%s", got, want)
	}
}

func TestNumber(t *testing.T) {
	for _, c := range []struct {
		v      float64
		signed bool
		want   string
	}{
		{0, false, "0"},
		{0, true, "+0"},
		{3.7149, false, "3.71"},
		{12.345, false, "12.3"},
		{204.4, true, "+204"},
		{-0.031, true, "−0.031"},
		{1500, false, "1500"},
		{0.004, false, "0.004"},
	} {
		if got := number(c.v, c.signed); got != c.want {
			t.Errorf("number(%v, %v) = %q, want %q", c.v, c.signed, got, c.want)
		}
	}
}

func TestCPUModel(t *testing.T) {
	in := "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R)  CPU @ 2.20GHz\nprocessor\t: 1\nmodel name\t: other\n"
	if got, want := cpuModel(strings.NewReader(in)), "Intel(R) Xeon(R) CPU @ 2.20GHz"; got != want {
		t.Errorf("cpuModel = %q, want %q", got, want)
	}
	if got := cpuModel(strings.NewReader("Processor : ARMv7\n")); got != "" {
		t.Errorf("cpuModel without a model name = %q, want empty", got)
	}
}
