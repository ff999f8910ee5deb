package views

import (
	"bytes"
	"encoding/json"
	"html"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
)

// Caps of a coloured JSON view. Colouring wraps nearly every token in a
// span, so the HTML is several times the text; past HighlightJSONBytes of
// indented text the view is plain escaped text, still indented.
const (
	HighlightJSONBytes = 32 << 10
	// HighlightHTMLBytes caps the coloured HTML of one view: a list of
	// booleans grows twenty times, and past this it is shown plain.
	HighlightHTMLBytes = 128 << 10
	// A string value of at least BlobMinChars base64 characters (or one
	// equal to an image's or audio's data) is collapsed to its size.
	BlobMinChars = 512
	// BlobShownChars is how much of a collapsed string opening it shows,
	// and BlobShownBudget how much all of one view's show together.
	BlobShownChars  = 1024
	BlobShownBudget = 16 << 10
	// MaxBlobs collapsed strings per view: each adds markup, so past it
	// strings are written as they are, under the view's byte cap.
	MaxBlobs = 200
)

// JSONViewProps is a JSON value indented by two spaces: pieces of HTML
// whose every text was escaped, and between them the base64 strings the
// view collapsed to their size.
type JSONViewProps struct {
	Pieces      []JSONPiece
	Lines       int
	Cut         bool   // a cap of the JSON view left something out
	Highlighted bool   // coloured by chroma; false past HighlightJSONBytes
	Text        string // the indented text, a marker standing for each collapsed string
	size        int    // bytes of HTML, for the card's text budget
}

// JSONPiece is escaped HTML or one collapsed string.
type JSONPiece struct {
	HTML string // escaped token text in spans; safe to insert unescaped
	Blob *JSONBlobProps
}

// JSONBlobProps is a base64 string shown as its size: Item names the
// content item (1-based) carrying the same bytes, Head is its opening.
type JSONBlobProps struct {
	Size    int
	Item    int
	Head    string
	HeadCut bool
}

// Empty reports whether the view shows nothing.
func (v JSONViewProps) Empty() bool { return len(v.Pieces) == 0 }

// newJSONView indents raw within maxBytes (see boundedJSON), collapses
// base64 strings, and colours the text while it is small enough. same
// maps the base64 of the result's images and audio to their item's
// 1-based number.
func newJSONView(raw []byte, maxBytes int, same map[string]int) JSONViewProps {
	raw = bytes.TrimSpace(raw)
	var blobs []JSONBlobProps
	p := jsonPrinter{src: raw, max: maxBytes}
	// A marker stands in the indented text for each collapsed string. It
	// holds \u0000, so when the input itself holds \u0000 anywhere nothing
	// is collapsed and no input can pass for a marker.
	if !bytes.Contains(raw, []byte(`\u0000`)) {
		shown := BlobShownBudget
		p.blob = func(s []byte) ([]byte, bool) {
			if len(blobs) >= MaxBlobs {
				return nil, false
			}
			b, ok := findBlob(s, same)
			if !ok {
				return nil, false
			}
			if len(b.Head) > shown {
				b.Head, b.HeadCut = cutUTF8(b.Head, shown), true
			}
			shown -= len(b.Head)
			blobs = append(blobs, b)
			return []byte(`"\u0000` + strconv.Itoa(len(blobs)-1) + `"`), true
		}
	}
	var text string
	if json.Valid(raw) {
		p.out.Grow(min(len(raw)*2, maxBytes) + 64)
		p.value(0)
		text = p.out.String()
	} else {
		text, p.cut = boundedJSON(raw, maxBytes)
	}
	v := JSONViewProps{Lines: strings.Count(text, "\n") + 1, Cut: p.cut, Text: text}
	if len(text) <= HighlightJSONBytes {
		if pieces, ok := highlightJSON(text, blobs); ok && piecesSize(pieces) <= HighlightHTMLBytes {
			v.Pieces, v.Highlighted = pieces, true
		}
	}
	if !v.Highlighted {
		v.Pieces = plainJSON(text, blobs)
	}
	v.size = piecesSize(v.Pieces)
	return v
}

// piecesSize is about how many bytes of HTML pieces render to; a
// collapsed string adds its opening and its summary's markup.
func piecesSize(pieces []JSONPiece) int {
	n := 0
	for _, pc := range pieces {
		n += len(pc.HTML)
		if pc.Blob != nil {
			n += escapedLen(pc.Blob.Head) + 300
		}
	}
	return n
}

// blobMarker matches the marker newJSONView writes for a collapsed string.
var blobMarker = regexp.MustCompile(`"\\u0000([0-9]+)"`)

// blobAt is the collapsed string a marker names, or nil.
func blobAt(s string, blobs []JSONBlobProps) *JSONBlobProps {
	m := blobMarker.FindStringSubmatch(s)
	if m == nil || m[0] != s {
		return nil
	}
	i, err := strconv.Atoi(m[1])
	if err != nil || i >= len(blobs) {
		return nil
	}
	return &blobs[i]
}

// plainJSON is text escaped, with the markers replaced by their strings.
func plainJSON(text string, blobs []JSONBlobProps) []JSONPiece {
	var out []JSONPiece
	last := 0
	for _, loc := range blobMarker.FindAllStringIndex(text, -1) {
		b := blobAt(text[loc[0]:loc[1]], blobs)
		if b == nil {
			continue
		}
		out = append(out, JSONPiece{HTML: html.EscapeString(text[last:loc[0]])}, JSONPiece{Blob: b})
		last = loc[1]
	}
	return append(out, JSONPiece{HTML: html.EscapeString(text[last:])})
}

// jsonLexer and jsonFormatter colour JSON with CSS classes (results.css
// holds the colours of each theme and preset), never inline styles, which
// the CSP refuses. The lexer is built here from chroma's rules rather than
// taken from chroma's lexers package, whose start-up registers some three
// hundred languages (120 ms) in every process; the text it reads is always
// the view's own indentation of valid JSON. Keys are strings a colon
// follows; the atomic groups keep a long string linear.
var (
	jsonLexer = sync.OnceValue(func() chroma.Lexer {
		return chroma.Coalesce(chroma.MustNewLexer(&chroma.Config{Name: "JSON"}, func() chroma.Rules {
			return chroma.Rules{"root": {
				{Pattern: `\s+`, Type: chroma.Text},
				{Pattern: `"(?>(?:\\.|[^"\\])*)"(?=\s*:)`, Type: chroma.NameTag},
				{Pattern: `"(?>(?:\\.|[^"\\])*)"`, Type: chroma.LiteralStringDouble},
				{Pattern: `-?(?:0|[1-9][0-9]*)(?:\.[0-9]+(?:[eE][+-]?[0-9]+)?|[eE][+-]?[0-9]+)`, Type: chroma.LiteralNumberFloat},
				{Pattern: `-?(?:0|[1-9][0-9]*)`, Type: chroma.LiteralNumberInteger},
				{Pattern: `(?:true|false|null)\b`, Type: chroma.KeywordConstant},
				{Pattern: `[{}\[\],:]`, Type: chroma.Punctuation},
				{Pattern: `.`, Type: chroma.Error},
			}}
		}))
	})
	jsonFormatter = chromahtml.New(chromahtml.WithClasses(true), chromahtml.PreventSurroundingPre(true), chromahtml.ClassPrefix("hl-"))
	// jsonStyle is empty: with classes, the colours live in results.css.
	jsonStyle = chroma.MustNewStyle("switchboard", chroma.StyleEntries{})
)

// highlightJSON colours text token by token. A boolean gets a check box
// drawn before its word, and a marker becomes its collapsed string.
func highlightJSON(text string, blobs []JSONBlobProps) ([]JSONPiece, bool) {
	it, err := jsonLexer().Tokenise(nil, text)
	if err != nil {
		return nil, false
	}
	var out []JSONPiece
	var run []chroma.Token
	var buf strings.Builder
	flush := func() bool {
		if len(run) == 0 {
			return true
		}
		buf.Reset()
		if err := jsonFormatter.Format(&buf, jsonStyle, chroma.Literator(run...)); err != nil {
			return false
		}
		out = append(out, JSONPiece{HTML: buf.String()})
		run = run[:0]
		return true
	}
	for t := it(); t != chroma.EOF; t = it() {
		switch {
		case t.Type == chroma.LiteralStringDouble && blobAt(t.Value, blobs) != nil:
			if !flush() {
				return nil, false
			}
			out = append(out, JSONPiece{Blob: blobAt(t.Value, blobs)})
		case t.Type == chroma.KeywordConstant && (t.Value == "true" || t.Value == "false"):
			if !flush() {
				return nil, false
			}
			out = append(out, JSONPiece{HTML: `<span class="json-bool json-bool-` + t.Value + `"><span class="json-check" aria-hidden="true"></span><span class="hl-kc">` + t.Value + `</span></span>`})
		default:
			run = append(run, t)
		}
	}
	if !flush() {
		return nil, false
	}
	return out, true
}

// findBlob reports whether the JSON string s (quotes included) is base64
// worth collapsing: the data of one of the result's images or audio, a
// data: URI, or at least BlobMinChars of base64.
func findBlob(s []byte, same map[string]int) (JSONBlobProps, bool) {
	if len(s) < 2 {
		return JSONBlobProps{}, false
	}
	inner := string(s[1 : len(s)-1])
	if strings.Contains(inner, `\/`) {
		inner = strings.ReplaceAll(inner, `\/`, "/")
	}
	data := inner
	if strings.HasPrefix(data, "data:") {
		if i := strings.Index(data[:min(len(data), 128)], ";base64,"); i > 0 {
			data = data[i+len(";base64,"):]
		}
	}
	item := same[data]
	if !isBase64(data) || (item == 0 && len(data) < BlobMinChars) {
		return JSONBlobProps{}, false
	}
	b := JSONBlobProps{Size: base64Size(data), Item: item}
	b.Head = cutUTF8(inner, BlobShownChars)
	b.HeadCut = len(b.Head) < len(inner)
	return b, true
}

// isBase64 reports whether s is standard or URL-safe base64, padded or
// not, with no other characters.
func isBase64(s string) bool {
	body := strings.TrimRight(s, "=")
	if len(s)-len(body) > 2 {
		return false
	}
	for i := 0; i < len(body); i++ {
		switch c := body[i]; {
		case c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '+', c == '/', c == '-', c == '_':
		default:
			return false
		}
	}
	return len(body)%4 != 1
}

// base64Size is the number of bytes s decodes to.
func base64Size(s string) int {
	body := strings.TrimRight(s, "=")
	return len(body) * 3 / 4
}
