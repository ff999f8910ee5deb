package main

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// writeTable writes outcomes as a Markdown table, then the line naming the
// machine.
func writeTable(w io.Writer, outcomes []outcome, machine string, smoke bool) error {
	var b strings.Builder
	b.WriteString("| measure | measured | target | result |\n|---|---|---|---|\n")
	for _, o := range outcomes {
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", o.Row.Name, measured(o), targetText(o.Row), o.Status)
	}
	b.WriteString("\n")
	if smoke {
		b.WriteString("Smoke run: each benchmark ran once, so the numbers say only that it still runs.\n\n")
	}
	b.WriteString(machine + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// measured is the "measured" cell: the number and unit, and for a
// difference its two terms.
func measured(o outcome) string {
	switch o.Status {
	case statusMissing:
		return "missing"
	case statusError:
		return "error"
	}
	s := withUnit(number(o.Value, o.Row.Signed), o.Row.Unit)
	if o.Row.Minus != nil {
		s += fmt.Sprintf(" (%s − %s)", number(o.Of, false), number(o.Minus, false))
	}
	return s
}

// targetText is the "target" cell.
func targetText(r row) string {
	if r.Target.Op == "" {
		return "—"
	}
	return r.Target.Op + " " + withUnit(number(r.Target.Bound, r.Signed && r.Target.Bound != 0), r.Unit)
}

// withUnit appends unit to the number n, as the README writes them.
func withUnit(n, unit string) string {
	switch unit {
	case "":
		return n
	case "%":
		return n + " %"
	}
	return n + " " + unit
}

// number formats v with about three significant digits, and a sign when
// signed (an amount added to a baseline).
func number(v float64, signed bool) string {
	a := math.Abs(v)
	var s string
	switch {
	case a == math.Trunc(a) && a < 1e6:
		s = strconv.FormatFloat(a, 'f', 0, 64)
	case a >= 100:
		s = strconv.FormatFloat(a, 'f', 0, 64)
	case a >= 10:
		s = strconv.FormatFloat(a, 'f', 1, 64)
	case a >= 0.1:
		s = strconv.FormatFloat(a, 'f', 2, 64)
	default:
		s = strconv.FormatFloat(a, 'g', 2, 64)
	}
	switch {
	case v < 0:
		return "−" + s
	case signed:
		return "+" + s
	}
	return s
}
