package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"golang.org/x/perf/benchfmt"
)

// results holds what benchmarks reported: for each benchmark (full name
// without its -GOMAXPROCS suffix) and unit as printed, every value read.
type results map[string]map[string][]float64

// parseResults reads the standard benchmark format ("go test -bench"
// output) from r. procs is the GOMAXPROCS the benchmarks ran with: the
// testing package appends "-procs" to every name unless procs is 1, and a
// name can itself end in "-32", so only that exact suffix is removed.
// Lines that are not results (logs, PASS, ok) are skipped. Names keep
// their "Benchmark" prefix, as in the table's rows.
func parseResults(r io.Reader, procs int, into results) error {
	rd := benchfmt.NewReader(r, "bench")
	for rd.Scan() {
		res, ok := rd.Result().(*benchfmt.Result)
		if !ok {
			continue // a *SyntaxError on a log line, or unit metadata
		}
		name := "Benchmark" + res.Name.String() // benchfmt drops the prefix
		if procs != 1 {
			name = strings.TrimSuffix(name, fmt.Sprintf("-%d", procs))
		}
		units := into[name]
		if units == nil {
			units = map[string][]float64{}
			into[name] = units
		}
		for _, v := range res.Values {
			unit, value := v.Unit, v.Value
			if v.OrigUnit != "" { // benchfmt tidies ns/op into sec/op; keep what was printed
				unit, value = v.OrigUnit, v.OrigValue
			}
			units[unit] = append(units[unit], value)
		}
	}
	if err := rd.Err(); err != nil {
		return fmt.Errorf("read benchmark output: %w", err)
	}
	return nil
}

// value returns the median of the values reported for m, and whether
// there was one.
func (rs results) value(m metric) (float64, bool) {
	vs := rs[m.Bench][m.Unit]
	if len(vs) == 0 {
		return 0, false
	}
	vs = slices.Sorted(slices.Values(vs))
	if n := len(vs); n%2 == 0 {
		return (vs[n/2-1] + vs[n/2]) / 2, true
	}
	return vs[len(vs)/2], true
}

// ran reports whether benchmark name printed a result line.
func (rs results) ran(name string) bool {
	_, ok := rs[name]
	return ok
}
