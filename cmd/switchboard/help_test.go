package main

import (
	"bytes"
	"context"
	"flag"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// TestHelpListsEveryFlag checks that each spelling of help prints every
// command with every flag its parser accepts, the environment variable
// the flag names, and its default.
func TestHelpListsEveryFlag(t *testing.T) {
	for _, arg := range []string{"--help", "-h", "help"} {
		var out, errOut bytes.Buffer
		if err := run(context.Background(), []string{arg}, noEnv, strings.NewReader(""), &out, &errOut); err != nil {
			t.Fatalf("switchboard %s: %v", arg, err)
		}
		help := out.String()
		if len(commands()) < 4 {
			t.Fatalf("got %d commands, want serve, token, status and demo-server at least", len(commands()))
		}
		for _, c := range commands() {
			section := commandSection(t, help, c.name)
			if c.flags == nil {
				continue
			}
			n := 0
			c.flags().VisitAll(func(f *flag.Flag) {
				n++
				if !regexp.MustCompile(`(?m)^\s+--` + regexp.QuoteMeta(f.Name) + `\b`).MatchString(section) {
					t.Errorf("switchboard %s: command %s: flag --%s missing", arg, c.name, f.Name)
				}
				for _, env := range regexp.MustCompile(`SWITCHBOARD_[A-Z_]+`).FindAllString(f.Usage, -1) {
					if !strings.Contains(section, env) {
						t.Errorf("switchboard %s: %s --%s: environment variable %s missing", arg, c.name, f.Name, env)
					}
				}
				if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" && f.DefValue != "0s" && !strings.Contains(section, "(default "+f.DefValue+")") {
					t.Errorf("switchboard %s: %s --%s: default %s missing", arg, c.name, f.Name, f.DefValue)
				}
			})
			if n == 0 && c.name != "help" {
				t.Errorf("command %s lists no flags", c.name)
			}
		}
	}
}

// commandSection is the part of the help about one command: from its
// synopsis line to the next one.
func commandSection(t *testing.T, help, name string) string {
	t.Helper()
	head := "\n  switchboard " + name
	i := strings.Index(help, head+" ")
	if i < 0 {
		i = strings.Index(help, head+"\n")
	}
	if i < 0 {
		t.Fatalf("help has no section for %q:\n%s", name, help)
	}
	rest := help[i+len(head):]
	if j := strings.Index(rest, "\n  switchboard "); j >= 0 {
		rest = rest[:j]
	}
	return rest
}

// TestHelpFromTheBinary checks that the built binary answers --help with
// the full text and a zero exit status, as a newcomer first types it.
func TestHelpFromTheBinary(t *testing.T) {
	out, err := exec.Command(binary, "--help").Output()
	if err != nil {
		t.Fatalf("switchboard --help: %v", err)
	}
	for _, want := range []string{"switchboard serve", "switchboard token", "switchboard status", "switchboard demo-server", "--max-message-bytes", "--crash-every", "--rotate"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("switchboard --help lacks %q", want)
		}
	}
}
