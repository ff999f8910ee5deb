package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/switchboard-mcp/switchboard/demoserver"
)

// command is one subcommand as the help text shows it. Its flags come
// from the same constructor the command parses with, so the help cannot
// list a flag that does not exist or miss one that does.
type command struct {
	name    string
	args    string // what follows the name in the synopsis
	summary []string
	flags   func() *flag.FlagSet
}

// noEnv stands in for the environment when listing flags: the help shows
// the built-in defaults, not whatever this shell happens to set.
func noEnv(string) string { return "" }

// commands lists every subcommand in the order the help shows them.
func commands() []command {
	return []command{
		{name: "serve", args: "[flags]", summary: []string{
			"Supervise the servers of a settings file and serve the dashboard and API (the default",
			"command: `switchboard [flags]` is the same). Prints the sign-in link once it listens.",
		}, flags: func() *flag.FlagSet {
			fs, _, err := newServeFlagSet(noEnv)
			if err != nil {
				panic(err) // unreachable: no environment, so no bad value
			}
			return fs
		}},
		{name: "token", args: "[flags]", summary: []string{
			"Print the access token of the data directory, creating it if needed.",
		}, flags: func() *flag.FlagSet { fs, _, _ := newTokenFlagSet(noEnv); return fs }},
		{name: "status", args: "[flags]", summary: []string{
			"Print one line per server of a running instance, found through DATA/instance.json.",
		}, flags: func() *flag.FlagSet { fs, _ := newStatusFlagSet(noEnv); return fs }},
		{name: "stdio", args: "[flags]", summary: []string{
			"Relay MCP between stdin/stdout and the running Switchboard, for AI clients that start",
			"servers as commands (Claude Desktop). Starts Switchboard in the background if none runs.",
		}, flags: func() *flag.FlagSet {
			fs, _, err := newStdioFlagSet(noEnv)
			if err != nil {
				panic(err) // unreachable: no environment, so no bad value
			}
			return fs
		}},
		{name: "connect", args: "CLIENT [flags]", summary: []string{
			"Connect an AI client (" + connectClientIDs() + ") to the running",
			"instance: creates a client token named after it and prints the client's config entry.",
		}, flags: func() *flag.FlagSet { fs, _ := newConnectFlagSet(noEnv); return fs }},
		{name: "demo-server", args: "[flags]", summary: []string{
			"Run the built-in demo MCP server.",
		}, flags: demoserver.Flags},
		{name: "help", summary: []string{"Print this help (also -h, --help)."}},
	}
}

// writeUsage prints every command with each of its flags, what the flag
// does (its environment variable is named in that text) and its default.
func writeUsage(w io.Writer) error {
	var b strings.Builder
	b.WriteString("Usage: switchboard [command] [flags]\n\nCommands:\n")
	for _, c := range commands() {
		fmt.Fprintf(&b, "\n  switchboard %s", c.name)
		if c.args != "" {
			fmt.Fprintf(&b, " %s", c.args)
		}
		b.WriteString("\n")
		for _, line := range c.summary {
			fmt.Fprintf(&b, "      %s\n", line)
		}
		if c.flags != nil {
			c.flags().VisitAll(func(f *flag.Flag) { writeFlag(&b, f) })
		}
	}
	b.WriteString("\nSWITCHBOARD_TOKEN passes the access token itself, for a host app that chose one.\n" +
		"A flag's environment variable applies when the flag is not given; the flag wins.\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// writeFlag prints one flag as "--name TYPE" and its usage, with the
// default when it is not the zero value.
func writeFlag(b *strings.Builder, f *flag.Flag) {
	typ, usage := flag.UnquoteUsage(f)
	fmt.Fprintf(b, "      --%s", f.Name)
	if typ != "" {
		fmt.Fprintf(b, " %s", typ)
	}
	fmt.Fprintf(b, "\n          %s", usage)
	switch f.DefValue {
	case "", "0", "false", "0s":
	default:
		fmt.Fprintf(b, " (default %s)", f.DefValue)
	}
	b.WriteString("\n")
}
