package domain

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// Bounds of a result's preview: what the feed carries of a finished call to
// every open page, where a card shows at most PreviewItems content items
// and at most PreviewTextBytes of one text inline (views.MaxContentItems
// and views.InlineTextCap; a test in views keeps them in step).
const (
	// PreviewTextBytes is how much of one text item a preview keeps, in
	// bytes of the text, plus one: a text cut there is still longer than
	// a card shows, so the card clips it and offers "Show the full text",
	// which is read from the store.
	PreviewTextBytes = 64 << 10
	// PreviewItems is how many content items a preview keeps; past them a
	// card only counts items, so each is kept as a 0.
	PreviewItems = 100
	// PreviewBytes bounds the rest of a preview: the text a card could
	// still show once that much is kept (texts past it keep only enough to
	// be seen as long and clipped), and the items and members other than
	// text, which a preview keeps whole or not at all.
	PreviewBytes = 1 << 20
	// previewShortText is how much of a text past PreviewBytes a preview
	// keeps: one byte more than a card takes for long text.
	previewShortText = 2001
)

// Preview returns inv as the feed carries it to open pages once it has
// ended: with only what a card shows of its result (ResultPreview) and
// Preview set, so that a result of megabytes is not held, decoded and
// rendered again for every page; Show more, Copy and downloads read the
// whole from the store. An invocation whose result is small, or cannot be
// cut faithfully, is returned as it is.
func (inv Invocation) Preview() Invocation {
	if p, ok := ResultPreview(inv.Result); ok {
		inv.Result, inv.ResultPreviewed = p, true
	}
	return inv
}

// ResultPreview returns what a card shows of a CallToolResult, and true,
// when result is larger than PreviewBytes and can be cut without changing
// the card: long texts are cut past what a card shows, items past
// PreviewItems are replaced by a 0, and everything else is kept as sent.
// It reports false, leaving the result to be carried whole, when the
// result is small, or when something a card renders from all its bytes (an
// image, a blob, structuredContent) does not fit in PreviewBytes.
func ResultPreview(result json.RawMessage) (json.RawMessage, bool) {
	if len(result) <= PreviewBytes {
		return nil, false
	}
	if !json.Valid(result) {
		return json.RawMessage(`{}`), true // ParseResult reads it as empty, as the card does
	}
	members := JSONMembers(result)
	if members == nil {
		return json.RawMessage(`{}`), true
	}
	out := bytes.NewBuffer(make([]byte, 0, 128<<10))
	whole, text := 0, 0 // bytes kept of non-text parts, and of text
	out.WriteByte('{')
	for i, name := range memberOrder(result) {
		if i > 0 {
			out.WriteByte(',')
		}
		value := members[name]
		if name != "content" {
			if whole += len(value); whole > PreviewBytes {
				return nil, false
			}
			writeMember(out, name, value)
			continue
		}
		elems := JSONElements(value)
		if elems == nil {
			writeMember(out, name, value) // not an array: a card shows no items
			continue
		}
		writeMember(out, name, nil)
		out.WriteByte('[')
		for j, item := range elems {
			if j > 0 {
				out.WriteByte(',')
			}
			if j >= PreviewItems {
				out.WriteByte('0')
				continue
			}
			fields := JSONMembers(item)
			switch lit := textLiteral(fields); {
			case lit != nil:
				limit := PreviewTextBytes + 1
				if text >= PreviewBytes {
					limit = previewShortText
				}
				keep := cutJSONText(lit, limit)
				text += keep
				writeTextItem(out, item, fields, lit[:keep], keep < len(lit))
			default:
				if whole += len(item); whole > PreviewBytes {
					return nil, false
				}
				out.Write(item)
			}
		}
		out.WriteByte(']')
	}
	out.WriteByte('}')
	return out.Bytes(), true
}

// textLiteral is the text of a text content item, given its members, as
// a JSON string literal, or nil when the item is not one.
func textLiteral(fields map[string][]byte) []byte {
	if string(fields["type"]) != `"text"` {
		return nil
	}
	if t := fields["text"]; len(t) > 0 && t[0] == '"' {
		return t
	}
	return nil
}

// writeTextItem writes item, whose members are fields, with its text
// replaced by kept, the start of its string literal, closed again when cut.
func writeTextItem(out *bytes.Buffer, item []byte, fields map[string][]byte, kept []byte, cut bool) {
	out.WriteByte('{')
	for _, name := range memberOrder(item) {
		if name != "text" {
			writeMember(out, name, fields[name])
			out.WriteByte(',')
		}
	}
	writeMember(out, "text", kept)
	if cut {
		out.WriteByte('"')
	}
	out.WriteByte('}')
}

// cutJSONText returns how many bytes of the JSON string literal s to keep,
// opening quote included, so that they hold the first n bytes of its text
// (or all of it, closing quote included); no escape, surrogate pair or
// UTF-8 character is split.
func cutJSONText(s []byte, n int) int {
	body := s[1 : len(s)-1]
	i, decoded := 0, 0
	for i < len(body) && decoded < n {
		step, size := 1, 1
		switch c := body[i]; {
		case c == '\\' && body[i+1] == 'u':
			step, size = 6, utf8.RuneLen(hexRune(body[i+2:i+6]))
			if isHighSurrogate(body[i+2:i+6]) && i+12 <= len(body) && body[i+6] == '\\' && body[i+7] == 'u' {
				step, size = 12, 4
			}
			size = max(size, 1)
		case c == '\\':
			step = 2
		case c >= utf8.RuneSelf:
			_, step = utf8.DecodeRune(body[i:])
			size = step
		}
		i += step
		decoded += size
	}
	if i == len(body) {
		return len(s)
	}
	return 1 + i
}

// hexRune reads the four hex digits of a \u escape.
func hexRune(hex []byte) rune {
	var r rune
	for _, h := range hex {
		r <<= 4
		switch {
		case h >= '0' && h <= '9':
			r |= rune(h - '0')
		case h >= 'a' && h <= 'f':
			r |= rune(h-'a') + 10
		case h >= 'A' && h <= 'F':
			r |= rune(h-'A') + 10
		}
	}
	return r
}
