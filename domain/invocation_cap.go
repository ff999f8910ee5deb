package domain

import (
	"encoding/json"
	"fmt"
)

// capResult keeps a result within max bytes while leaving it valid JSON, so
// the card still renders what fits: long texts are cut and marked, and
// content items that do not fit (large images, audio, blobs) are replaced by
// a text item saying what was left out.
func capResult(result json.RawMessage, max int64) (json.RawMessage, bool) {
	if int64(len(result)) <= max {
		return result, false
	}
	var r map[string]json.RawMessage
	if err := json.Unmarshal(result, &r); err != nil {
		return omitted(int64(len(result))), true
	}
	var content []map[string]any
	_ = json.Unmarshal(r["content"], &content)
	delete(r, "content")
	delete(r, "structuredContent") // too big to keep whole; the content says it was cut
	base, _ := json.Marshal(r)
	budget := max - int64(len(base)) - 64
	kept := make([]map[string]any, 0, len(content))
	for _, item := range content {
		b, _ := json.Marshal(item)
		if int64(len(b)) <= budget {
			kept = append(kept, item)
			budget -= int64(len(b))
			continue
		}
		if text, ok := item["text"].(string); ok && item["type"] == "text" && budget > 256 {
			cut := truncateUTF8(text, int(budget-256))
			item["text"] = cut
			kept = append(kept, item)
			budget = 0
			continue
		}
		kept = append(kept, map[string]any{"type": "text", "text": fmt.Sprintf("[%s content of %d bytes omitted]", item["type"], len(b))})
	}
	out := map[string]any{}
	for k, v := range r {
		out[k] = v
	}
	out["content"] = kept
	b, err := json.Marshal(out)
	if err != nil || int64(len(b)) > max {
		return omitted(int64(len(result))), true
	}
	return b, true
}

func omitted(size int64) json.RawMessage {
	b, _ := json.Marshal(map[string]any{"content": []any{map[string]any{"type": "text",
		"text": fmt.Sprintf("[result of %d bytes omitted]", size)}}})
	return b
}

// truncateUTF8 cuts s to at most n bytes without splitting a character.
func truncateUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && (s[n]&0xC0) == 0x80 {
		n--
	}
	return s[:n]
}
