package main

import "testing"

func TestEvaluate(t *testing.T) {
	ms := func(b string) *metric { return &metric{b, "ns/op"} }
	us := func(b, unit string) *metric { return &metric{b, unit} }
	rs := results{
		"BenchmarkFast":   {"ns/op": {400_000}, "html-KB": {2048}, "zero": {0}},
		"BenchmarkSlow":   {"ns/op": {12_000_000}},
		"BenchmarkDirect": {"p50-µs": {190}},
		"BenchmarkVia":    {"p50-µs": {840}, "pct": {93.5}},
		"BenchmarkNear":   {"p50-µs": {350}},
	}
	for _, c := range []struct {
		name      string
		row       row
		failed    string
		want      status
		wantValue float64
	}{
		{"ns-per-op-in-ms-under-target-passes", row{Of: ms("BenchmarkFast"), Scale: nsToMS, Target: atMost(1)}, "", statusPass, 0.4},
		{"ns-per-op-in-ms-over-target-fails", row{Of: ms("BenchmarkSlow"), Scale: nsToMS, Target: atMost(10)}, "", statusFail, 12},
		{"custom-metric-scaled", row{Of: us("BenchmarkFast", "html-KB"), Scale: 1.0 / 1024, Target: atMost(1)}, "", statusFail, 2},
		{"zero-meets-at-most-zero", row{Of: us("BenchmarkFast", "zero"), Scale: 1, Target: atMost(0)}, "", statusPass, 0},
		{"at-least-met", row{Of: us("BenchmarkVia", "pct"), Scale: 1, Target: atLeast(90)}, "", statusPass, 93.5},
		{"at-least-missed", row{Of: us("BenchmarkVia", "pct"), Scale: 1, Target: atLeast(95)}, "", statusFail, 93.5},
		{"difference-over-target-fails",
			row{Of: us("BenchmarkVia", "p50-µs"), Minus: us("BenchmarkDirect", "p50-µs"), Scale: usToMS, Target: atMost(0.2)},
			"", statusFail, 0.65},
		{"difference-under-target-passes",
			row{Of: us("BenchmarkNear", "p50-µs"), Minus: us("BenchmarkDirect", "p50-µs"), Scale: usToMS, Target: atMost(0.2)},
			"", statusPass, 0.16},
		{"no-target-is-reported", row{Of: ms("BenchmarkSlow"), Scale: nsToMS}, "", statusReported, 12},
		{"benchmark-not-run-is-missing", row{Of: ms("BenchmarkAbsent"), Scale: nsToMS, Target: atMost(1)}, "", statusMissing, 0},
		{"metric-not-reported-is-missing", row{Of: us("BenchmarkFast", "p50-µs"), Scale: 1, Target: atMost(1)}, "", statusMissing, 0},
		{"missing-term-of-difference-is-missing",
			row{Of: us("BenchmarkVia", "p50-µs"), Minus: us("BenchmarkAbsent", "p50-µs"), Scale: usToMS, Target: atMost(0.2)},
			"", statusMissing, 0},
		{"failed-benchmark-is-error", row{Of: ms("BenchmarkFast"), Scale: nsToMS, Target: atMost(1)}, "BenchmarkFast", statusError, 0},
		{"failed-term-of-difference-is-error",
			row{Of: us("BenchmarkVia", "p50-µs"), Minus: us("BenchmarkDirect", "p50-µs"), Scale: usToMS, Target: atMost(0.2)},
			"BenchmarkDirect", statusError, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := evaluate(c.row, rs, map[string]bool{c.failed: c.failed != ""})
			if o.Status != c.want || !near(o.Value, c.wantValue) {
				t.Errorf("evaluate = %s %v, want %s %v", o.Status, o.Value, c.want, c.wantValue)
			}
		})
	}
}

func near(a, b float64) bool { d := a - b; return d < 1e-9 && d > -1e-9 }

func TestFailsRun(t *testing.T) {
	for _, c := range []struct {
		status      status
		smoke, full bool
	}{
		{statusPass, false, false},
		{statusReported, false, false},
		{statusFail, false, true},
		{statusMissing, true, true},
		{statusError, true, true},
	} {
		o := outcome{Status: c.status}
		if got := o.failsRun(true); got != c.smoke {
			t.Errorf("%s: failsRun(smoke) = %v, want %v", c.status, got, c.smoke)
		}
		if got := o.failsRun(false); got != c.full {
			t.Errorf("%s: failsRun(full) = %v, want %v", c.status, got, c.full)
		}
	}
}
