// Command bench runs the benchmarks behind the speed and memory targets of
// issue #14 and of the gateway, and prints them as one Markdown table with
// each target and a PASS/FAIL column, then the machine they ran on.
//
//	go run ./cmd/bench             # every row; exits 1 on a missed target
//	go run ./cmd/bench -run Gateway -o bench.md
//	go run ./cmd/bench -smoke      # each benchmark once: do they still run?
//
// It is run from the module root, as make does.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	switch {
	case err == nil:
	case errors.Is(err, flag.ErrHelp):
	default:
		fmt.Fprintf(os.Stderr, "bench: %v\n", err)
		os.Exit(1)
	}
}

// errRows says the table has a row that fails the run; the table itself
// tells which.
var errRows = errors.New("a benchmark failed, did not run or missed its target")

// run is main without the process.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	pattern := fs.String("run", "", "only the rows whose measure or benchmark name matches this regular expression")
	smoke := fs.Bool("smoke", false, "run each benchmark once (-benchtime 1x) and fail only on a benchmark that fails or is missing")
	outFile := fs.String("o", "", "also write the table to this file")
	verbose := fs.Bool("v", false, "copy the benchmarks' own output to stderr")
	if err := fs.Parse(args); err != nil {
		return err
	}
	picked, js, err := selectRows(*pattern)
	if err != nil {
		return fmt.Errorf("-run: %w", err)
	}
	if len(picked) == 0 {
		return fmt.Errorf("-run %q matches no row", *pattern)
	}
	root, err := moduleRoot(ctx)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "switchboard-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	rn := &runner{Root: root, Tmp: tmp, Procs: runtime.GOMAXPROCS(0), Smoke: *smoke, Verbose: *verbose, Log: stderr}
	rs := results{}
	failed := map[string]bool{}
	start := time.Now()
	for _, j := range js {
		if err := rn.run(ctx, j, rs); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			fmt.Fprintf(stderr, "bench: %v\n", err)
			for _, b := range j.Produces {
				if !rs.ran(b) { // a benchmark that printed its result before a sibling failed still counts
					failed[b] = true
				}
			}
		}
	}
	fmt.Fprintf(stderr, "bench: %d runs in %s\n", len(js), time.Since(start).Round(time.Second))

	outcomes := make([]outcome, len(picked))
	failing := false
	for i, r := range picked {
		outcomes[i] = evaluate(r, rs, failed)
		failing = failing || outcomes[i].failsRun(*smoke)
	}
	machine := machineLine(time.Now(), runtime.Version())
	if err := writeTable(stdout, outcomes, machine, *smoke); err != nil {
		return err
	}
	if *outFile != "" {
		f, err := os.Create(*outFile)
		if err != nil {
			return err
		}
		if err := writeTable(f, outcomes, machine, *smoke); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	if failing {
		return errRows
	}
	return nil
}

// moduleRoot is the directory of the go.mod that the go command sees.
func moduleRoot(ctx context.Context) (string, error) {
	out, err := exec.CommandContext(ctx, "go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", errors.New("not inside the module: run from the repository root")
	}
	return filepath.Dir(gomod), nil
}
