package views_test

import (
	"reflect"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

func approvalFor(cfg domain.ServerConfig) views.ApprovalProps {
	cfg.Name, cfg.Transport = "s", domain.TransportStdio
	cfg.Raw = domain.RawConfig{Command: cfg.Command, Args: cfg.Args, Env: cfg.Env}
	st := domain.Status{ServerName: "s", Source: "/p/.mcp.json", BlockedReason: domain.BlockedPending,
		Approval: domain.NewApprovalRequest(cfg, "/p", nil)}
	return views.NewApprovalProps([]domain.Status{st}, approveAt, rejectAt, true)
}

// The dialog escapes exactly what domain.IsDisplayControl names, the rule
// server names and switchboard status use, but shows newline and tab.
func TestApprovalValuesEscapeDisplayControls(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"bidi-override", "gnp\u202e.exe", `gnp\u{202E}.exe`},
		{"line-separator", "ok\u2028rm -rf", `ok\u{2028}rm -rf`},
		{"zero-width-space", "no\u200bde", `no\u{200B}de`},
		{"bom", "\ufeffx", `\u{FEFF}x`},
		{"soft-hyphen", "to\u00adken", `to\u{00AD}ken`},
		{"tag-characters", "a\U000e0041\U000e0042", `a\u{E0041}\u{E0042}`},
		{"escape", "x\x1b[2J", `x\u{001B}[2J`},
		{"c1-control", "x\u009b", `x\u{009B}`},
		{"newline-and-tab-shown", "a\nb\tc", "a\nb\tc"},
		{"invalid-utf8", "a\xffb", `a\u{FFFD}b`},
		{"joiner-kept", "👩\u200d💻", "👩\u200d💻"},
		{"plain", "server.js", "server.js"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := approvalFor(domain.ServerConfig{Command: "node", Args: []string{tt.in}, Env: map[string]string{tt.in: tt.in}})
			if got := p.Args[0].Text; got != tt.want {
				t.Errorf("arg: got %q, want %q", got, tt.want)
			}
			if len(p.Env) != 1 || p.Env[0].Key != tt.want || p.Env[0].Value.Text != tt.want {
				t.Errorf("env: got %+v, want key and value %q", p.Env, tt.want)
			}
		})
	}
}

// A program that changes user is flagged beside the command or the
// argument naming it, and said in the summary.
func TestApprovalFlagsPrivilege(t *testing.T) {
	p := approvalFor(domain.ServerConfig{Command: "sudo", Args: []string{"-u", "root", "srv"}})
	flag := []views.Message{msg("ApprovalFlagPrivilege", nil)}
	if !reflect.DeepEqual(p.Command.Flags, flag) {
		t.Errorf("command flags: got %+v, want %+v", p.Command.Flags, flag)
	}
	if want := []views.Message{msg("ApprovalRiskPrivilege", map[string]any{"Program": "sudo"})}; !reflect.DeepEqual(p.Risks, want) {
		t.Errorf("risks: got %+v, want %+v", p.Risks, want)
	}
	p = approvalFor(domain.ServerConfig{Command: "env", Args: []string{"-C", "/tmp", "doas", "sh", "-c", "evil"}})
	if !reflect.DeepEqual(p.Args[2].Flags, flag) || len(p.Args[5].Flags) != 1 || p.Args[5].Flags[0].ID != "ApprovalFlagInline" {
		t.Errorf("args: got %+v, want doas flagged as another user and the sh -c code as a program", p.Args)
	}

	doc := renderDrawerPart(t, "pt-BR", views.ApprovalDialog(approvalFor(domain.ServerConfig{Command: "sudo", Args: []string{"srv"}})))
	if got := doc.Find(`[data-testid="approval-command"] [data-testid="approval-flag"]`).Text(); got != "⚠ executa como outro usuário" {
		t.Errorf("rendered flag: got %q", got)
	}
}
