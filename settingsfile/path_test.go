package settingsfile_test

import (
	"testing"

	"github.com/switchboard-mcp/switchboard/settingsfile"
)

func TestDefaultPath(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		want    string
		wantErr bool
	}{
		{"xdg-wins", map[string]string{"XDG_CONFIG_HOME": "/xdg", "HOME": "/home/ada"}, "/xdg/switchboard/settings.json", false},
		{"home-fallback", map[string]string{"HOME": "/home/ada"}, "/home/ada/.config/switchboard/settings.json", false},
		{"relative-xdg-ignored", map[string]string{"XDG_CONFIG_HOME": "cfg", "HOME": "/home/ada"}, "/home/ada/.config/switchboard/settings.json", false},
		{"nothing-set", map[string]string{}, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := settingsfile.DefaultPath(env(tt.env))
			if (err != nil) != tt.wantErr {
				t.Fatalf("error: got %v, want error %v", err, tt.wantErr)
			}
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
