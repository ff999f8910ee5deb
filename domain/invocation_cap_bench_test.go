package domain

import (
	"encoding/json"
	"strings"
	"testing"
)

// BenchmarkFinishResult30MB reads and caps a 30 MB text result as a call's
// end does (ParseResult, then capResult at the default cap): the bytes it
// allocates are what holding such a result costs beyond the result itself.
func BenchmarkFinishResult30MB(b *testing.B) {
	raw, _ := json.Marshal(map[string]any{"content": []any{map[string]any{"type": "text",
		"text": strings.Repeat("x", 30e6)}}, "isError": false})
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if ParseResult(raw).IsError {
			b.Fatal("isError")
		}
		capped, truncated := capResult(raw, DefaultMaxResultBytes)
		if !truncated || int64(len(capped)) > DefaultMaxResultBytes {
			b.Fatalf("capped to %d bytes, truncated %v", len(capped), truncated)
		}
	}
}
