package domain_test

import (
	"reflect"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
)

// Inline code behind the wrappers a .mcp.json can put in front of it: an
// option's value is never taken for the program, so the sh -c after it is
// found and its argument index is the one in the entry's args.
func TestInlineCodeBehindWrappers(t *testing.T) {
	tests := []struct {
		name    string
		command string
		args    []string
		prog    string
		index   int
		ok      bool
	}{
		{"env-unset", "env", []string{"-u", "X", "sh", "-c", "evil"}, "sh", 4, true},
		{"env-unset-attached", "env", []string{"-uX", "sh", "-c", "evil"}, "sh", 3, true},
		{"env-unset-long", "env", []string{"--unset", "X", "sh", "-c", "evil"}, "sh", 4, true},
		{"env-unset-long-equals", "env", []string{"--unset=X", "sh", "-c", "evil"}, "sh", 3, true},
		{"env-unset-abbreviated", "env", []string{"--un", "X", "sh", "-c", "evil"}, "sh", 4, true},
		{"env-unset-in-a-group", "env", []string{"-iu", "X", "sh", "-c", "evil"}, "sh", 4, true},
		{"env-chdir", "env", []string{"-C", "/tmp", "sh", "-c", "evil"}, "sh", 4, true},
		{"env-chdir-long", "/usr/bin/env", []string{"--chdir", "/tmp", "A=1", "bash", "-lc", "evil"}, "bash", 5, true},
		{"env-split-string", "env", []string{"-S", "sh -c evil"}, "sh", 1, true},
		{"env-split-attached", "env", []string{"-Ssh -c 'evil; x'"}, "sh", 0, true},
		{"env-split-long", "env", []string{"--split-string=-i A=1 sh -c", "evil"}, "sh", 1, true},
		{"env-split-then-more-args", "env", []string{"-S", "python3 -u", "-c", "code"}, "python", 3, true},
		{"env-split-harmless", "env", []string{"-S", "node server.js", "--port", "1"}, "", 0, false},
		{"env-split-unbalanced-is-flagged", "env", []string{"-S", "sh -c 'evil"}, "env", 1, true},
		{"env-double-dash", "env", []string{"--", "sh", "-c", "evil"}, "sh", 3, true},
		{"env-alone-runs-nothing", "env", []string{"-u", "X"}, "", 0, false},
		{"timeout", "timeout", []string{"5", "sh", "-c", "evil"}, "sh", 3, true},
		{"timeout-options", "timeout", []string{"-k", "1", "--signal=KILL", "30s", "python3", "-c", "evil"}, "python", 6, true},
		{"timeout-harmless", "timeout", []string{"30", "node", "server.js"}, "", 0, false},
		{"nice", "nice", []string{"sh", "-c", "evil"}, "sh", 2, true},
		{"nice-n", "nice", []string{"-n", "10", "sh", "-c", "evil"}, "sh", 4, true},
		{"nice-old-style", "nice", []string{"-10", "sh", "-c", "evil"}, "sh", 3, true},
		{"setsid", "setsid", []string{"-w", "sh", "-c", "evil"}, "sh", 3, true},
		{"stdbuf", "stdbuf", []string{"-oL", "-e", "0", "sh", "-c", "evil"}, "sh", 5, true},
		{"ionice", "ionice", []string{"-c", "2", "-n", "7", "sh", "-c", "evil"}, "sh", 6, true},
		{"nohup", "nohup", []string{"sh", "-c", "evil"}, "sh", 2, true},
		{"exec", "exec", []string{"-a", "name", "sh", "-c", "evil"}, "sh", 4, true},
		{"sudo", "sudo", []string{"-u", "root", "-E", "sh", "-c", "evil"}, "sh", 5, true},
		{"doas", "doas", []string{"-u", "root", "sh", "-c", "evil"}, "sh", 4, true},
		{"nested", "env", []string{"-u", "X", "timeout", "5", "nice", "-n", "1", "nohup", "sh", "-c", "evil"}, "sh", 10, true},
		{"npx-c", "npx", []string{"-c", "evil"}, "npx", 1, true},
		{"npm-exec-c", "npm", []string{"exec", "-c", "evil"}, "npm", 2, true},
		{"npm-x-call", "npm", []string{"--yes", "x", "--call=evil"}, "npm", 2, true},
		{"npm-exec-package", "npm", []string{"exec", "--yes", "@scope/server"}, "", 0, false},
		{"npm-run-is-not-inline", "npm", []string{"run", "-c", "x"}, "", 0, false},
		{"su-c", "su", []string{"-", "root", "-c", "evil"}, "su", 3, true},
	}
	deep := append(make([]string, 0, 41), "node", "server.js")
	for range 40 {
		deep = append([]string{"nohup"}, deep...)
	}
	tests = append(tests, struct {
		name    string
		command string
		args    []string
		prog    string
		index   int
		ok      bool
	}{"too-many-wrappers-is-flagged", "nohup", deep, "nohup", 31, true})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			prog, i, ok := domain.InlineCode(tt.command, tt.args)
			if ok != tt.ok || (ok && (prog != tt.prog || i != tt.index)) {
				t.Errorf("got %q %d %v, want %q %d %v", prog, i, ok, tt.prog, tt.index, tt.ok)
			}
		})
	}
}

// A program that changes user is flagged where it is written, besides any
// inline code it runs.
func TestPrivilegeIsFlagged(t *testing.T) {
	tests := []struct {
		name    string
		command string
		args    []string
		want    []domain.Risk
	}{
		{"sudo-command", "sudo", []string{"srv"},
			[]domain.Risk{{Kind: domain.RiskPrivilege, Field: domain.FieldCommand, Program: "sudo"}}},
		{"doas-behind-env", "env", []string{"-C", "/tmp", "doas", "sh", "-c", "evil"},
			[]domain.Risk{
				{Kind: domain.RiskPrivilege, Field: domain.FieldArgs, Index: 2, Program: "doas"},
				{Kind: domain.RiskInlineCode, Field: domain.FieldArgs, Index: 5, Program: "sh"},
			}},
		{"pkexec", "/usr/bin/pkexec", []string{"--user", "root", "srv"},
			[]domain.Risk{{Kind: domain.RiskPrivilege, Field: domain.FieldCommand, Program: "pkexec"}}},
		{"su", "su", []string{"-c", "srv"},
			[]domain.Risk{
				{Kind: domain.RiskPrivilege, Field: domain.FieldCommand, Program: "su"},
				{Kind: domain.RiskInlineCode, Field: domain.FieldArgs, Index: 1, Program: "su"},
			}},
		{"plain", "node", []string{"server.js"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := domain.ServerConfig{Name: "s", Transport: domain.TransportStdio, Command: tt.command, Args: tt.args}
			cfg.Raw = domain.RawConfig{Command: tt.command, Args: tt.args}
			if got := domain.NewApprovalRequest(cfg, "/p", nil).Risks; !reflect.DeepEqual(got, tt.want) {
				t.Errorf("risks: got %+v, want %+v", got, tt.want)
			}
		})
	}
}
