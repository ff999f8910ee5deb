package views

import "testing"

func TestProtocolEraID(t *testing.T) {
	tests := []struct{ version, want string }{
		{"", ""},
		{"2024-11-05", "DrawerEraSession"},
		{"2025-11-25", "DrawerEraSession"},
		{"2026-07-28", "DrawerEraStateless"},
		{"2027-01-01", "DrawerEraStateless"},
	}
	for _, tt := range tests {
		if got := protocolEraID(tt.version); got != tt.want {
			t.Errorf("protocolEraID(%q) = %q, want %q", tt.version, got, tt.want)
		}
	}
}
