package views

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"strings"

	"github.com/a-h/templ"
)

// Caps of the media a card carries inside itself. A card is pushed to every
// open page and kept in the history, so a 10 MB image inlined as base64 once
// made a 13 MB card; past these caps an image, audio or blob is referenced
// by the URL that serves its bytes instead.
const (
	InlineMediaCap  = 64 << 10  // base64 bytes of one item inlined as a data: URI
	CardMediaBudget = 256 << 10 // base64 bytes inlined across one card's items
)

// mediaSrc decides whether an item's bytes travel inside the card or by
// URL.
type mediaSrc struct {
	url   string // where the item's bytes are served; empty keeps them inline
	limit int    // base64 bytes that may still be inlined
}

// href is where the item's bytes come from: a data: URI while they fit,
// else the media URL.
func (m mediaSrc) href(mime, data string) templ.SafeURL {
	if m.url != "" && len(data) > m.limit {
		return templ.SafeURL(m.url)
	}
	return templ.SafeURL("data:" + mime + ";base64," + data)
}

// inlineBytes is how much base64 the item carries inside the card.
func (p ContentItemProps) inlineBytes() int {
	n := 0
	if strings.HasPrefix(string(p.Src), "data:") {
		n += len(p.Src)
	}
	if p.Download != nil && strings.HasPrefix(string(p.Download.Href), "data:") {
		n += len(p.Download.Href)
	}
	return n
}

// maxShownMIME is the most of a refused MIME type a card repeats: the
// server chose it, so it can be any length.
const maxShownMIME = 100

// mediaHead is how many decoded bytes a type check needs (WEBP reads 12).
const mediaHead = 16

// checkBase64 decodes data as a stream, so a 10 MB item is checked without
// holding its bytes, and returns the first mediaHead bytes and the decoded
// size.
func checkBase64(data string) (head []byte, size int, err error) {
	d := base64.NewDecoder(base64.StdEncoding, strings.NewReader(data))
	buf := make([]byte, 32<<10)
	for {
		n, err := d.Read(buf)
		if len(head) < mediaHead {
			head = append(head, buf[:min(n, mediaHead-len(head))]...)
		}
		size += n
		if errors.Is(err, io.EOF) {
			return head, size, nil
		}
		if err != nil {
			return head, size, err
		}
	}
}

// badData is why an item's base64 was refused: cut short (a whole number
// of characters missing from the end, as when a stored result is cut), or
// simply not base64.
func badData(data string) Message {
	if looksCut(data) {
		return Message{ID: "ContentRefusedCut"}
	}
	return Message{ID: "ContentRefusedData"}
}

// looksCut reports whether data is base64 that stops partway through a
// four-character group.
func looksCut(data string) bool {
	n := 0
	for i := 0; i < len(data); i++ {
		switch c := data[i]; {
		case c == '\r' || c == '\n':
			continue
		case c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '+', c == '/', c == '=':
			n++
		default:
			return false
		}
	}
	return n > 0 && n%4 != 0
}

// Media is one content item's bytes as the media endpoint serves them.
type Media struct {
	Data []byte
	MIME string
	// Inline reports whether the bytes are an image or audio type a card
	// shows in place. Anything else (SVG, HTML, any other blob) may only
	// be downloaded, never rendered by the browser.
	Inline   bool
	FileName string // an embedded resource's name, for a download
}

// ContentMedia decodes the image, audio or embedded blob of one content
// item, with the same checks as the card that shows it. It reports false
// when the item holds no such bytes or they are not valid base64.
func ContentMedia(raw json.RawMessage) (Media, bool) {
	var c contentJSON
	if json.Unmarshal(raw, &c) != nil {
		return Media{}, false
	}
	var data string
	mime := strings.ToLower(strings.TrimSpace(c.MIMEType))
	m := Media{}
	switch {
	case c.Type == "image" || c.Type == "audio":
		data = c.Data
	case c.Type == "resource" && c.Resource != nil && c.Resource.Blob != nil:
		data, mime = *c.Resource.Blob, safeMIME(c.Resource.MIMEType)
		m.FileName = fileName(c.Resource.URI)
	default:
		return Media{}, false
	}
	b, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		return Media{}, false
	}
	m.Data, m.MIME = b, safeMIME(mime)
	if magic, ok := imageTypes[mime]; ok && c.Type != "audio" {
		m.Inline = hasMagic(b, mime, magic)
	}
	if audioTypes[mime] && c.Type != "image" {
		m.Inline = true
	}
	return m, true
}

// imageTypes are the image types a card shows, with the bytes each must
// start with. SVG is refused: it can carry script.
var imageTypes = map[string][]string{
	"image/png":  {"\x89PNG\r\n\x1a\n"},
	"image/jpeg": {"\xff\xd8\xff"},
	"image/gif":  {"GIF87a", "GIF89a"},
	"image/webp": {"RIFF"},
}

func (p *ContentItemProps) setImage(mime, data string, media mediaSrc) {
	mime = strings.ToLower(strings.TrimSpace(mime))
	magic, ok := imageTypes[mime]
	if !ok {
		p.Type, p.Refused = "refused", Message{ID: "ContentRefusedType", Data: map[string]any{"Type": cutUTF8(mime, maxShownMIME)}}
		return
	}
	head, size, err := checkBase64(data)
	if err != nil {
		p.Type, p.Refused = "refused", badData(data)
		return
	}
	if !hasMagic(head, mime, magic) {
		p.Type, p.Refused = "refused", Message{ID: "ContentRefusedData"}
		return
	}
	p.Image, p.MIME = true, mime
	p.Large = size > LargeImage
	p.setImageSize(mime, data)
	p.Src = media.href(mime, data)
}

func hasMagic(b []byte, mime string, magic []string) bool {
	for _, m := range magic {
		if bytes.HasPrefix(b, []byte(m)) {
			return mime != "image/webp" || (len(b) >= 12 && string(b[8:12]) == "WEBP")
		}
	}
	return false
}

// audioTypes are the audio types a card plays.
var audioTypes = map[string]bool{
	"audio/wav": true, "audio/x-wav": true, "audio/wave": true, "audio/mpeg": true, "audio/mp3": true,
	"audio/ogg": true, "audio/webm": true, "audio/flac": true, "audio/aac": true, "audio/mp4": true,
}

func (p *ContentItemProps) setAudio(mime, data string, media mediaSrc) {
	mime = strings.ToLower(strings.TrimSpace(mime))
	if !audioTypes[mime] {
		p.Type, p.Refused = "refused", Message{ID: "ContentRefusedType", Data: map[string]any{"Type": cutUTF8(mime, maxShownMIME)}}
		return
	}
	if _, _, err := checkBase64(data); err != nil {
		p.Type, p.Refused = "refused", badData(data)
		return
	}
	p.MIME = mime
	p.Src = media.href(mime, data)
}
