package main

import (
	"context"
	"strings"
	"testing"
)

// TestRunner builds and runs testdata/fakebench's benchmarks for real.
func TestRunner(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a test binary")
	}
	ctx := context.Background()
	root, err := moduleRoot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	rn := &runner{Root: root, Tmp: t.TempDir(), Procs: 2, Smoke: true, Log: &log}
	const fake = "BenchmarkFake/case-32-concurrent"
	rs := results{}
	err = rn.run(ctx, job{Pkg: "./cmd/bench/testdata/fakebench", Bench: "^BenchmarkFake$", Benchtime: "7x",
		Produces: []string{fake}}, rs)
	if err != nil {
		t.Fatalf("run: %v\nlog:\n%s", err, log.String())
	}
	if got, ok := rs.value(metric{fake, "iterations"}); !ok || got != 1 {
		t.Errorf("iterations = %v, %v; want 1 (a smoke run is -benchtime 1x)", got, ok)
	}
	if got, _ := rs.value(metric{fake, "smoke"}); got != 1 {
		t.Errorf("the benchmark did not see %s=1", smokeEnv)
	}

	err = rn.run(ctx, job{Pkg: "./cmd/bench/testdata/fakebench", Bench: "^BenchmarkFails$", Benchtime: "1x",
		Produces: []string{"BenchmarkFails"}}, rs)
	if err == nil || !strings.Contains(err.Error(), "fails on purpose") {
		t.Errorf("run of a failing benchmark = %v, want an error with its output", err)
	}
	if got := strings.Count(log.String(), "built ./cmd/bench/testdata/fakebench"); got != 1 {
		t.Errorf("test binary built %d times, want once:\n%s", got, log.String())
	}
}
