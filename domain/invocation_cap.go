package domain

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// capResult keeps a result within max bytes while leaving it valid JSON, so
// the card still renders what fits: long texts are cut and marked, and
// content items that do not fit (large images, audio, blobs) are replaced by
// a text item saying what was left out. It works on the bytes as the server
// wrote them, copying only what it keeps: a result of tens of megabytes is
// never decoded into Go values nor encoded again.
func capResult(result json.RawMessage, max int64) (json.RawMessage, bool) {
	if int64(len(result)) <= max {
		return result, false
	}
	if !json.Valid(result) {
		return omitted(int64(len(result))), true
	}
	members, order := JSONMembers(result), memberOrder(result)
	if members == nil {
		return omitted(int64(len(result))), true
	}
	// The other members, in the order sent; structuredContent is too big
	// to keep whole, and the content says it was cut.
	var base bytes.Buffer
	base.WriteByte('{')
	for _, name := range order {
		if name == "content" || name == "structuredContent" {
			continue
		}
		writeMember(&base, name, members[name])
		base.WriteByte(',')
	}
	budget := max - int64(base.Len()) - 64
	out := bytes.NewBuffer(make([]byte, 0, min(max, int64(len(result)))))
	out.Write(base.Bytes())
	out.WriteString(`"content":[`)
	for i, item := range JSONElements(members["content"]) {
		if i > 0 {
			out.WriteByte(',')
			budget--
		}
		if int64(len(item)) <= budget {
			out.Write(item)
			budget -= int64(len(item))
			continue
		}
		fields := JSONMembers(item)
		text := fields["text"]
		if string(fields["type"]) == `"text"` && len(text) > 0 && text[0] == '"' && budget > 256 {
			keep := cutJSONString(text, int(budget-256))
			out.WriteByte('{')
			for _, name := range memberOrder(item) {
				if name != "text" {
					writeMember(out, name, fields[name])
					out.WriteByte(',')
				}
			}
			writeMember(out, "text", text[:keep])
			out.WriteString(`"}`)
			budget = 0
			continue
		}
		var kind any
		_ = json.Unmarshal(fields["type"], &kind)
		note, _ := json.Marshal(map[string]any{"type": "text",
			"text": fmt.Sprintf("[%v content of %d bytes omitted]", kind, len(item))})
		out.Write(note)
		budget -= int64(len(note))
	}
	out.WriteString("]}")
	if int64(out.Len()) > max || !json.Valid(out.Bytes()) {
		return omitted(int64(len(result))), true
	}
	return out.Bytes(), true
}

func writeMember(b *bytes.Buffer, name string, value []byte) {
	key, _ := json.Marshal(name)
	b.Write(key)
	b.WriteByte(':')
	b.Write(value)
}

// cutJSONString returns how many bytes of the JSON string literal s to
// keep, opening quote included, so that they and a closing quote make at
// most n bytes; no escape, surrogate pair or UTF-8 character is split, so
// the cut stays a valid literal of the text's beginning.
func cutJSONString(s []byte, n int) int {
	if len(s) <= n {
		return len(s) - 1
	}
	body, room := s[1:len(s)-1], n-2
	i := 0
	for i < len(body) {
		step := 1
		switch c := body[i]; {
		case c == '\\' && body[i+1] == 'u':
			step = 6
			if isHighSurrogate(body[i+2:i+6]) && i+12 <= len(body) && body[i+6] == '\\' && body[i+7] == 'u' {
				step = 12
			}
		case c == '\\':
			step = 2
		case c >= utf8.RuneSelf:
			_, step = utf8.DecodeRune(body[i:])
		}
		if i+step > room {
			break
		}
		i += step
	}
	return 1 + i
}

// isHighSurrogate reports whether the four hex digits of a \u escape are
// the first half of a surrogate pair.
func isHighSurrogate(hex []byte) bool {
	r := hexRune(hex)
	return r >= 0xD800 && r < 0xDC00
}

func omitted(size int64) json.RawMessage {
	b, _ := json.Marshal(map[string]any{"content": []any{map[string]any{"type": "text",
		"text": fmt.Sprintf("[result of %d bytes omitted]", size)}}})
	return b
}
