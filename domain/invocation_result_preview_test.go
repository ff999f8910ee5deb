package domain

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// previewTexts decodes a preview and returns its content items' types and
// texts, failing the test when it is not JSON.
func previewTexts(t *testing.T, raw json.RawMessage) (types, texts []string) {
	t.Helper()
	var r struct {
		Content []json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatalf("preview is not JSON: %v", err)
	}
	for _, item := range r.Content {
		var it struct{ Type, Text string }
		_ = json.Unmarshal(item, &it)
		types, texts = append(types, it.Type), append(texts, it.Text)
	}
	return types, texts
}

func TestResultPreview(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("abcdefgh\n", 500_000) // 4.5 MB
	mixed := strings.Repeat("é中😀\"\\<\u2028\x01 ", 100_000)
	cases := []struct {
		name    string
		content []any
		extra   map[string]any
		ok      bool
		types   []string
		lens    []int // bytes of each text kept; -1 for the whole
	}{
		{"small-result-carried-whole", []any{map[string]any{"type": "text", "text": "hi"}}, nil, false, nil, nil},
		{"long-text-cut-past-what-a-card-shows",
			[]any{map[string]any{"type": "text", "text": long, "annotations": map[string]any{"priority": 1}},
				map[string]any{"type": "text", "text": "after"}},
			map[string]any{"isError": true, "_meta": map[string]any{"k": "v"}},
			true, []string{"text", "text"}, []int{PreviewTextBytes + 1, -1}},
		{"escapes-and-characters-never-split", []any{map[string]any{"type": "text", "text": mixed}}, nil,
			true, []string{"text"}, []int{PreviewTextBytes + 1}},
		{"large-image-carried-whole",
			[]any{map[string]any{"type": "image", "mimeType": "image/png", "data": strings.Repeat("A", 2<<20)}},
			nil, false, nil, nil},
		{"large-structured-content-carried-whole", []any{map[string]any{"type": "text", "text": long}},
			map[string]any{"structuredContent": map[string]any{"s": long}}, false, nil, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m := map[string]any{"content": tc.content}
			for k, v := range tc.extra {
				m[k] = v
			}
			raw, _ := json.Marshal(m)
			got, ok := ResultPreview(raw)
			if ok != tc.ok {
				t.Fatalf("ok: got %v, want %v", ok, tc.ok)
			}
			if !ok {
				return
			}
			if len(got) > PreviewBytes {
				t.Errorf("preview of %d bytes, want at most %d", len(got), PreviewBytes)
			}
			types, texts := previewTexts(t, got)
			if strings.Join(types, ",") != strings.Join(tc.types, ",") {
				t.Fatalf("types: got %v, want %v", types, tc.types)
			}
			r := ParseResult(got)
			whole := ParseResult(raw)
			if r.IsError != whole.IsError || string(r.Meta) != string(whole.Meta) {
				t.Errorf("members: got isError %v _meta %s, want %v %s", r.IsError, r.Meta, whole.IsError, whole.Meta)
			}
			for i, text := range texts {
				orig := tc.content[i].(map[string]any)["text"].(string)
				want := tc.lens[i]
				if want < 0 {
					want = len(orig)
				}
				if len(text) < want || len(text) > want+3 || !strings.HasPrefix(orig, text) || strings.ContainsRune(text, utf8.RuneError) {
					t.Errorf("item %d: kept %d bytes, want %d (a character more at most) beginning the text", i, len(text), want)
				}
			}
		})
	}
}

// Past PreviewItems a card only counts items, so the preview keeps the
// count; past PreviewBytes of text, a text keeps just enough to be seen
// as long.
func TestResultPreviewBounds(t *testing.T) {
	t.Parallel()
	var content []any
	for range 150 {
		content = append(content, map[string]any{"type": "text", "text": strings.Repeat("x", 100_000)})
	}
	raw, _ := json.Marshal(map[string]any{"content": content})
	got, ok := ResultPreview(raw)
	if !ok {
		t.Fatal("ok: got false, want a preview")
	}
	if n := len(ParseResult(got).Content); n != 150 {
		t.Errorf("items: got %d, want 150", n)
	}
	_, texts := previewTexts(t, got)
	if texts[0] == "" || len(texts[PreviewItems-1]) != previewShortText || texts[PreviewItems] != "" {
		t.Errorf("texts kept: first %d, last shown %d, first past the items %d bytes; want some, %d, 0",
			len(texts[0]), len(texts[PreviewItems-1]), len(texts[PreviewItems]), previewShortText)
	}
	if len(got) > 2*PreviewBytes {
		t.Errorf("preview of %d bytes, want about %d at most", len(got), PreviewBytes)
	}
	if p, ok := ResultPreview(json.RawMessage(`{"content":` + strings.Repeat(" ", PreviewBytes) + `[`)); !ok || string(p) != `{}` {
		t.Errorf("invalid JSON: got %s %v, want {} true", p, ok)
	}
}
