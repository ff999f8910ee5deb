package domain_test

import (
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
)

func TestWorkDir(t *testing.T) {
	stdio := func(cwd string) domain.ServerConfig {
		return domain.ServerConfig{Name: "s", Transport: domain.TransportStdio, Command: "node", Cwd: cwd, Raw: domain.RawConfig{Command: "node", Cwd: cwd}}
	}
	tests := []struct {
		name string
		cfg  domain.ServerConfig
		base string
		want string
	}{
		{"no-cwd-runs-in-base", stdio(""), "/home/ana", "/home/ana"},
		{"cwd-wins", stdio("/srv/tools"), "/home/ana", "/srv/tools"},
		{"no-base-no-cwd-inherits", stdio(""), "", ""},
		{"relative-cwd-resolves-from-base", stdio("tools/bin"), "/home/ana/proj", "/home/ana/proj/tools/bin"},
		{"relative-cwd-may-climb", stdio("../shared"), "/home/ana/proj", "/home/ana/shared"},
		{"relative-cwd-without-base-stays", stdio("tools"), "", "tools"},
		{"remote-has-none", domain.ServerConfig{Name: "r", Transport: domain.TransportHTTP, URL: "https://x"}, "/home/ana", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := domain.WithBaseDir([]domain.ServerConfig{tt.cfg}, tt.base)[0]
			if got.WorkDir() != tt.want {
				t.Errorf("WorkDir: got %q, want %q", got.WorkDir(), tt.want)
			}
			if got.Fingerprint() != tt.cfg.Fingerprint() {
				t.Error("the base directory changed the fingerprint; approvals would be asked again")
			}
			if got.Written().Cwd != tt.cfg.Written().Cwd {
				t.Errorf("written cwd: got %q, want %q as the file has it", got.Written().Cwd, tt.cfg.Written().Cwd)
			}
		})
	}
}
