// Package fakebench holds benchmarks for cmd/bench's runner test: one that
// reports a custom metric and says whether it ran as a smoke run, and one
// that fails.
package fakebench

import (
	"os"
	"testing"
)

func BenchmarkFake(b *testing.B) {
	b.Run("case-32-concurrent", func(b *testing.B) {
		for b.Loop() {
		}
		smoke := 0.0
		if os.Getenv("SWITCHBOARD_BENCH_SMOKE") == "1" {
			smoke = 1
		}
		b.ReportMetric(smoke, "smoke")
		b.ReportMetric(float64(b.N), "iterations")
	})
}

func BenchmarkFails(b *testing.B) {
	b.Fatal("this benchmark fails on purpose")
}
