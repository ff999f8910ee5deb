package main

import "testing"

// TestEveryBenchmarkHasAJob checks that each row's benchmarks are run by
// exactly one job, so a row is never "missing" for want of a run.
func TestEveryBenchmarkHasAJob(t *testing.T) {
	producers := map[string]int{}
	for _, j := range jobs {
		for _, b := range j.Produces {
			producers[b]++
		}
	}
	for _, r := range rows {
		for _, m := range r.metrics() {
			if producers[m.Bench] != 1 {
				t.Errorf("row %q: %s is produced by %d jobs, want 1", r.Name, m.Bench, producers[m.Bench])
			}
		}
	}
}

func TestSelectRows(t *testing.T) {
	for _, c := range []struct {
		pattern        string
		rows, jobCount int
	}{
		{"", len(rows), len(jobs)},
		{"Gateway", 3, 2},
		{"gateway throughput", 1, 1},
		{"ToolCall", 4, 1},
		{"nothing-matches-this", 0, 0},
	} {
		rs, js, err := selectRows(c.pattern)
		if err != nil || len(rs) != c.rows || len(js) != c.jobCount {
			t.Errorf("selectRows(%q) = %d rows, %d jobs, %v; want %d, %d", c.pattern, len(rs), len(js), err, c.rows, c.jobCount)
		}
	}
	if _, _, err := selectRows("("); err == nil {
		t.Error("selectRows(\"(\") accepted a bad pattern")
	}
}
