package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// runner builds each package's test binary once and runs jobs with it.
type runner struct {
	Root    string // the module root
	Tmp     string // where test binaries are written
	Procs   int    // GOMAXPROCS of every benchmark (-test.cpu)
	Smoke   bool
	Verbose bool      // copy the benchmarks' output to Log
	Log     io.Writer // progress and errors
	built   map[string]built
}

// built is a package's test binary, or why it could not be built.
type built struct {
	bin string
	err error
}

// smokeEnv is set for the benchmarks of a smoke run, so that one whose
// single iteration is still too slow for CI can pick a smaller variant.
const smokeEnv = "SWITCHBOARD_BENCH_SMOKE"

// run runs j and adds what it reports to into. The error says why the
// binary could not be built or the benchmark failed, with the end of its
// output.
func (rn *runner) run(ctx context.Context, j job, into results) error {
	bin, err := rn.build(ctx, j.Pkg)
	if err != nil {
		return err
	}
	benchtime := j.Benchtime
	if rn.Smoke {
		benchtime = "1x"
	}
	cmd := exec.CommandContext(ctx, bin, "-test.run=^$", "-test.bench="+j.Bench, "-test.benchmem",
		"-test.benchtime="+benchtime, fmt.Sprintf("-test.cpu=%d", rn.Procs), "-test.timeout=30m")
	cmd.Dir = filepath.Join(rn.Root, j.Pkg)
	cmd.Env = os.Environ()
	if rn.Smoke {
		cmd.Env = append(cmd.Env, smokeEnv+"=1")
	}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if rn.Verbose {
		cmd.Stdout, cmd.Stderr = io.MultiWriter(&out, rn.Log), io.MultiWriter(&errOut, rn.Log)
	}
	start := time.Now()
	runErr := cmd.Run()
	fmt.Fprintf(rn.Log, "bench: %s (%s) %.1fs, %s CPU\n", j.name(), benchtime, time.Since(start).Seconds(), cpuTime(cmd))
	if err := parseResults(bytes.NewReader(out.Bytes()), rn.Procs, into); err != nil {
		return fmt.Errorf("%s: %w", j.name(), err)
	}
	if runErr != nil {
		return fmt.Errorf("%s: %w\n%s", j.name(), runErr, tail(out.String()+errOut.String(), 40))
	}
	return nil
}

// build compiles pkg's test binary unless it has tried already: a package
// that does not compile is reported once, not for each of its jobs.
func (rn *runner) build(ctx context.Context, pkg string) (string, error) {
	if b, ok := rn.built[pkg]; ok {
		if b.err != nil {
			return "", fmt.Errorf("%s test binary did not build (above)", pkg)
		}
		return b.bin, nil
	}
	bin := filepath.Join(rn.Tmp, strings.NewReplacer("/", "_", ".", "_").Replace(pkg)+".test")
	cmd := exec.CommandContext(ctx, "go", "test", "-c", "-o", bin, pkg)
	cmd.Dir = rn.Root
	start := time.Now()
	out, err := cmd.CombinedOutput()
	if err != nil {
		err = fmt.Errorf("build %s test binary: %w\n%s", pkg, err, out)
	}
	fmt.Fprintf(rn.Log, "bench: built %s test binary in %.1fs, %s CPU\n", pkg, time.Since(start).Seconds(), cpuTime(cmd))
	if rn.built == nil {
		rn.built = map[string]built{}
	}
	rn.built[pkg] = built{bin: bin, err: err}
	return bin, err
}

// cpuTime is the CPU time cmd and the children it waited for used: on a
// loaded machine it tells what a run costs better than the wall clock.
func cpuTime(cmd *exec.Cmd) string {
	if cmd.ProcessState == nil {
		return "?"
	}
	d := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	return fmt.Sprintf("%.1fs", d.Seconds())
}

// tail returns the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
