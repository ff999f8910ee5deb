// Command switchboard runs, supervises and shows the MCP servers an AI
// client uses. See the README for the settings format, flags and API.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/switchboard-mcp/switchboard/demoserver"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go exitAfterDeadline(ctx)
	err := run(ctx, os.Args[1:], keepTokenFromChildren(), os.Stdin, os.Stdout, os.Stderr)
	stop()
	var crash *demoserver.CrashError
	switch {
	case err == nil:
	case errors.Is(err, flag.ErrHelp):
		os.Exit(0)
	case errors.As(err, &crash):
		os.Exit(1) // the demo server already said why on stderr
	default:
		fmt.Fprintf(os.Stderr, "switchboard: %v\n", err)
		os.Exit(1)
	}
}

// shutdownDeadline is how long SIGINT or SIGTERM may take to end the
// process: a host app or service manager that stops Switchboard must be
// able to count on it, whatever a child or a file read is doing.
const shutdownDeadline = 10 * time.Second

// exitAfterDeadline ends the process shutdownDeadline after ctx is done
// (a signal arrived), if the orderly shutdown has not finished by then.
func exitAfterDeadline(ctx context.Context) {
	<-ctx.Done()
	time.Sleep(shutdownDeadline)
	fmt.Fprintf(os.Stderr, "switchboard: shutdown took longer than %s; exiting now\n", shutdownDeadline)
	os.Exit(1)
}

// run is main without the process: it takes everything from outside as
// arguments so tests can run the whole program in-process.
func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		switch args[0] {
		case "demo-server":
			return demoserver.Run(ctx, args[1:], stdin, stdout, stderr)
		case "status":
			return runStatus(ctx, args[1:], getenv, stdout, stderr)
		case "token":
			return runToken(args[1:], getenv, stdout, stderr)
		case "connect":
			return runConnect(ctx, args[1:], getenv, stdin, stdout, stderr)
		case "stdio":
			return runStdio(ctx, args[1:], getenv, stdin, stdout, stderr)
		case "serve":
			args = args[1:]
		case "help", "-h", "--help", "-help":
			return writeUsage(stdout)
		}
	}
	cfg, err := parseServeFlags(args, getenv, stderr)
	if err != nil {
		return err
	}
	return serve(ctx, cfg, getenv, stdout, stderr)
}
