package handlers

import "testing"

func TestContentEncoding(t *testing.T) {
	for _, tt := range []struct{ accept, want string }{
		{"", ""},
		{"identity", ""},
		{"gzip", "gzip"},
		{"gzip, deflate, br, zstd", "br"},
		{"br;q=0, gzip", "gzip"},
		{"BR;Q=0.5", "br"},
		{"gzip;q=0", ""},
		{"*", "br"},
		{"*;q=0, gzip", "gzip"},
		{"br;q=0, *", "gzip"},
		{"deflate", ""},
		{" gzip ; q=0.8 , br ; q=0.1", "br"},
	} {
		if got := contentEncoding(tt.accept); got != tt.want {
			t.Errorf("Accept-Encoding %q: got %q, want %q", tt.accept, got, tt.want)
		}
	}
}
