package main

import (
	"regexp"
	"strings"
)

// job is one run of a package's test binary: the benchmarks that -bench
// selects, and how long each runs.
type job struct {
	Pkg   string // relative to the module root, like "./handlers"
	Bench string // the -test.bench pattern
	// Benchtime is the -test.benchtime of a full run; a smoke run uses 1x.
	Benchtime string
	// Produces lists the benchmarks this job reports.
	Produces []string
}

// jobs lists how each benchmark of the table is run. Fixed iteration
// counts keep a full run near five minutes on two cores: several
// benchmarks set up hundreds of servers or pages once per round, so the
// default one second would repeat that setup for nothing.
var jobs = []job{
	{Pkg: "./handlers", Bench: "^BenchmarkPageEventLatency$/^servers=200$/^pages=(100|1000)$", Benchtime: "100x",
		Produces: []string{pageEvents100, pageEvents1000}},
	{Pkg: "./handlers", Bench: "^BenchmarkPageRender$/^views.Page$", Benchtime: "50x", Produces: []string{pageRender}},
	{Pkg: "./handlers", Bench: "^BenchmarkFirstLoad$", Benchtime: "3x", Produces: []string{firstLoad}},
	{Pkg: "./handlers", Bench: "^BenchmarkDashboardThousandCalls$", Benchtime: "30x", Produces: []string{thousandCalls}},
	{Pkg: "./domain", Bench: "^BenchmarkApplyOneChange$/^servers=5000$", Benchtime: "30x", Produces: []string{applyOne}},
	{Pkg: "./cmd/switchboard", Bench: "^BenchmarkToolCall$", Benchtime: "500x",
		Produces: []string{toolDirect, toolVia, toolDirect32, toolVia32}},
	{Pkg: "./cmd/switchboard", Bench: "^BenchmarkStdioServersRSS$", Benchtime: "1x", Produces: []string{stdioRSS}},
	{Pkg: "./mcpclient", Bench: "^BenchmarkMemoryResult30MB$", Benchtime: "5x", Produces: []string{result30MB}},
	{Pkg: "./mcpserver", Bench: "^BenchmarkGatewayCallLatency$/^(legacy|2026-07-28)$", Benchtime: "2000x",
		Produces: []string{gatewayLegacy, gateway2026}},
	{Pkg: "./mcpserver", Bench: "^BenchmarkGatewayThroughput$/^sqlite-history$", Benchtime: "2000x",
		Produces: []string{gatewayLoad}},
}

// selectRows returns the rows whose name or benchmark matches pattern
// (all rows when pattern is empty), and the jobs those rows need, in the
// order of jobs.
func selectRows(pattern string) ([]row, []job, error) {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, nil, err
	}
	var picked []row
	need := map[string]bool{}
	for _, r := range rows {
		match := re.MatchString(r.Name)
		for _, m := range r.metrics() {
			match = match || re.MatchString(m.Bench)
		}
		if !match {
			continue
		}
		picked = append(picked, r)
		for _, m := range r.metrics() {
			need[m.Bench] = true
		}
	}
	var js []job
	for _, j := range jobs {
		for _, b := range j.Produces {
			if need[b] {
				js = append(js, j)
				break
			}
		}
	}
	return picked, js, nil
}

// name is how progress and error messages refer to j.
func (j job) name() string {
	return strings.TrimPrefix(j.Pkg, "./") + " " + j.Bench
}
