package main

// target is a bound on a row's number, in the row's shown unit.
type target struct {
	Op    string // "≤" or "≥"; "" when the number is reported only
	Bound float64
}

// atMost is the target of a cost: time, bytes, memory.
func atMost(v float64) target { return target{Op: "≤", Bound: v} }

// atLeast is the target of a benefit: throughput.
func atLeast(v float64) target { return target{Op: "≥", Bound: v} }

// met reports whether v meets t; a number reported only always does.
func (t target) met(v float64) bool {
	switch t.Op {
	case "≤":
		return v <= t.Bound
	case "≥":
		return v >= t.Bound
	}
	return true
}

// status is a row's verdict.
type status string

const (
	statusPass     status = "PASS"
	statusFail     status = "FAIL"
	statusReported status = "—"       // no target
	statusMissing  status = "missing" // the benchmark did not run, or did not report the metric
	statusError    status = "error"   // the benchmark failed
)

// outcome is a row with its number.
type outcome struct {
	Row    row
	Status status
	// Value is the number in the row's unit; Of and Minus are its two
	// terms when the row is a difference.
	Value, Of, Minus float64
}

// evaluate works out r's number from rs and judges it against r's target.
// failed holds the benchmarks whose run failed.
func evaluate(r row, rs results, failed map[string]bool) outcome {
	o := outcome{Row: r}
	for _, m := range r.metrics() {
		if failed[m.Bench] {
			o.Status = statusError
			return o
		}
	}
	for _, m := range r.metrics() {
		if _, ok := rs.value(m); !ok {
			o.Status = statusMissing
			return o
		}
	}
	of, _ := rs.value(*r.Of)
	o.Of = of * r.Scale
	o.Value = o.Of
	if r.Minus != nil {
		minus, _ := rs.value(*r.Minus)
		o.Minus = minus * r.Scale
		o.Value = o.Of - o.Minus
	}
	switch {
	case r.Target.Op == "":
		o.Status = statusReported
	case r.Target.met(o.Value):
		o.Status = statusPass
	default:
		o.Status = statusFail
	}
	return o
}

// failsRun reports whether o makes the command exit with an error: in a
// smoke run only a benchmark that failed or did not report does, in a full
// run a missed target does too.
func (o outcome) failsRun(smoke bool) bool {
	switch o.Status {
	case statusError, statusMissing:
		return true
	case statusFail:
		return !smoke
	}
	return false
}
