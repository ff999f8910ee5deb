package domain

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
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

// A text cut anywhere stays a valid JSON string whose text begins the
// original: escapes, surrogate pairs and UTF-8 characters are never split.
func TestCutJSONStringKeepsAValidBeginning(t *testing.T) {
	t.Parallel()
	text := "a\"b\\c\nd é 中 😀 <&> \u2028 \x01 end"
	lit, _ := json.Marshal(text) // escapes <, &, > and U+2028 as \u
	withPair := []byte(`"x\ud83d\ude00y\u00e9"`)
	for _, s := range [][]byte{lit, withPair} {
		var whole string
		if err := json.Unmarshal(s, &whole); err != nil {
			t.Fatal(err)
		}
		for n := 2; n <= len(s)+1; n++ {
			keep := cutJSONString(s, n)
			cut := append(s[:keep:keep], '"')
			var got string
			if err := json.Unmarshal(cut, &got); err != nil {
				t.Fatalf("cut of %s to %d: %s is not a JSON string: %v", s, n, cut, err)
			}
			if len(cut) > n || !strings.HasPrefix(whole, got) || strings.ContainsRune(got, utf8.RuneError) {
				t.Errorf("cut of %s to %d: got %s (%q), want at most %d bytes beginning %q", s, n, cut, got, n, whole)
			}
		}
	}
}

// capResult keeps the members it can and the items that fit, in the order
// sent, cuts the text that does not fit, and notes what it left out.
func TestCapResultKeepsWhatFits(t *testing.T) {
	t.Parallel()
	raw := json.RawMessage(`{"_meta":{"k":"v"},"content":[{"type":"text","text":"small"},` +
		`{"type":"image","data":"` + strings.Repeat("A", 2000) + `","mimeType":"image/png"},` +
		`{"annotations":{"audience":["user"]},"type":"text","text":"` + strings.Repeat(`<\"é\n`, 1000) + `"},` +
		`{"type":"text","text":"after"}],"structuredContent":{"big":"` + strings.Repeat("s", 1000) + `"},"isError":true}`)
	got, truncated := capResult(raw, 1500)
	if !truncated || len(got) > 1500 {
		t.Fatalf("capResult: %d bytes, truncated %v; want at most 1500 and truncated", len(got), truncated)
	}
	r := ParseResult(got)
	if !r.IsError || string(r.Meta) != `{"k":"v"}` || r.StructuredContent != nil {
		t.Errorf("members: isError %v, _meta %s, structuredContent %s; want true, as sent, none", r.IsError, r.Meta, r.StructuredContent)
	}
	var items []struct {
		Type, Text  string
		Annotations json.RawMessage
	}
	for _, c := range r.Content {
		var it struct {
			Type, Text  string
			Annotations json.RawMessage
		}
		if err := json.Unmarshal(c, &it); err != nil {
			t.Fatalf("item %s: %v", c, err)
		}
		items = append(items, it)
	}
	if len(items) != 4 || items[0].Text != "small" || items[1].Text != "[image content of 2049 bytes omitted]" ||
		!strings.HasPrefix(strings.Repeat("<\"é\n", 1000), items[2].Text) || len(items[2].Text) < 500 ||
		string(items[2].Annotations) != `{"audience":["user"]}` || items[3].Text != "[text content of 30 bytes omitted]" {
		t.Errorf("items: %.300v", items)
	}
	for _, bad := range []string{`{"content":[` + strings.Repeat(" ", 2000), `[` + strings.Repeat(`"x",`, 500) + `"x"]`} {
		got, truncated := capResult(json.RawMessage(bad), 1000)
		if !truncated || !strings.Contains(string(got), "bytes omitted") {
			t.Errorf("capResult(%.20s…) = %s, %v; want the whole result noted as omitted", bad, got, truncated)
		}
	}
}
