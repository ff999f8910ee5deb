package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"
)

// machineLine names the machine a table was measured on: its CPU, cores,
// platform, Go version and the date, as the README shows beside the table.
func machineLine(now time.Time, goVersion string) string {
	cpu := "unknown CPU"
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		if m := cpuModel(f); m != "" {
			cpu = m
		}
		f.Close()
	}
	return fmt.Sprintf("Measured on %s, %d cores (GOMAXPROCS %d), %s/%s, %s, %s.",
		cpu, runtime.NumCPU(), runtime.GOMAXPROCS(0), runtime.GOOS, runtime.GOARCH, goVersion,
		now.UTC().Format("2006-01-02 15:04 MST"))
}

// cpuModel returns the first "model name" of a /proc/cpuinfo, or "".
func cpuModel(r io.Reader) string {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		key, value, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(key) == "model name" {
			return strings.Join(strings.Fields(value), " ")
		}
	}
	return ""
}
