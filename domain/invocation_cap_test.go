package domain

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestCapResultStaysValidJSON(t *testing.T) {
	big := strings.Repeat("é", 400_000) // 800 KB of two-byte characters
	img := strings.Repeat("A", 300_000)
	raw, _ := json.Marshal(map[string]any{"content": []any{
		map[string]any{"type": "image", "data": img, "mimeType": "image/png"},
		map[string]any{"type": "text", "text": big},
	}, "isError": false})
	got, truncated := capResult(raw, 500_000)
	if !truncated || len(got) > 500_000 {
		t.Fatalf("capResult: %d bytes, truncated %v; want at most 500000 and truncated", len(got), truncated)
	}
	var r struct {
		Content []struct{ Type, Text string }
	}
	if err := json.Unmarshal(got, &r); err != nil {
		t.Fatalf("capped result is not JSON: %v", err)
	}
	if len(r.Content) != 2 || r.Content[0].Type != "image" || r.Content[1].Type != "text" || len(r.Content[1].Text) == 0 {
		t.Errorf("content kept: %+v", len(r.Content))
	}
	if small, tr := capResult(json.RawMessage(`{"content":[]}`), 100); tr || string(small) != `{"content":[]}` {
		t.Errorf("a small result was changed")
	}
}
