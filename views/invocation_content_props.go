package views

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/a-h/templ"
)

// Limits that keep a huge result from freezing the page. The server
// decides: text past InlineTextCap is not sent until asked for, and long
// text is clipped by CSS after 30 lines, with the full text in the DOM.
const (
	LongTextChars = 2000      // text longer than this collapses behind "Show more"
	InlineTextCap = 64 << 10  // bytes of one text item rendered inline
	LargeImage    = 500 << 10 // decoded bytes past which an image starts as a thumbnail
	ArgsLongLines = 100       // argument JSON longer than this collapses
)

// ContentItemProps is one item of a CallToolResult's content, checked and
// ready to show. Type is the MCP type, or "refused" when the item could
// not be shown safely (a wrong MIME type, bad base64, bytes that are not
// the image they claim to be).
type ContentItemProps struct {
	Type  string // text, image, audio, resource_link, resource, unknown, refused
	Index int

	HTML    string // sanitized Markdown (text, embedded text/markdown)
	Code    string // embedded non-Markdown text, shown as a code block
	Long    bool   // over LongTextChars: clipped after 30 lines with "Show more"
	Clipped bool   // cut at InlineTextCap; FullURL renders the whole item
	FullURL string

	Src      templ.SafeURL // a checked data: URI (image, audio)
	MIME     string
	Image    bool // Src is a checked image (an image item or an embedded image blob)
	Large    bool // an image over LargeImage, shown as a thumbnail first
	Download *DownloadProps

	Link *ResourceLinkProps
	URI  string // an embedded resource's URI

	Refused Message // why an item was not shown
	Raw     string  // pretty JSON of an unknown item

	Annotations []Message
}

// ResourceLinkProps is a resource_link chip; activating it reads the
// resource through the server and previews it inline.
type ResourceLinkProps struct {
	Name, URI, MIME, Size string
	ReadURL               string
	PreviewID             string
}

// DownloadProps is a blob offered as a file.
type DownloadProps struct {
	Href     templ.SafeURL
	FileName string
	MIME     string
}

// ContentURLs builds the endpoints content items call.
type ContentURLs struct {
	Item func(index int) string // one item in full
	Read func(uri string) string
}

// contentJSON is one content item as MCP sends it.
type contentJSON struct {
	Type        string          `json:"type"`
	Text        string          `json:"text"`
	Data        string          `json:"data"`
	MIMEType    string          `json:"mimeType"`
	URI         string          `json:"uri"`
	Name        string          `json:"name"`
	Title       string          `json:"title"`
	Size        *int64          `json:"size"`
	Resource    *resourceJSON   `json:"resource"`
	Annotations *annotationJSON `json:"annotations"`
}

type resourceJSON struct {
	URI      string  `json:"uri"`
	MIMEType string  `json:"mimeType"`
	Text     *string `json:"text"`
	Blob     *string `json:"blob"`
}

type annotationJSON struct {
	Audience []string `json:"audience"`
	Priority *float64 `json:"priority"`
}

// ResultJSON is the part of a CallToolResult a card reads.
type ResultJSON struct {
	Content           []json.RawMessage `json:"content"`
	StructuredContent json.RawMessage   `json:"structuredContent"`
	IsError           bool              `json:"isError"`
}

// ParseResult reads a stored CallToolResult; a result that is not one
// reads as empty.
func ParseResult(raw json.RawMessage) ResultJSON {
	var r ResultJSON
	_ = json.Unmarshal(raw, &r)
	return r
}

// NewContentItems checks and converts each content item, in order.
func NewContentItems(r ResultJSON, urls ContentURLs, full int) []ContentItemProps {
	out := make([]ContentItemProps, 0, len(r.Content))
	for i, raw := range r.Content {
		out = append(out, NewContentItem(i, raw, urls, i == full))
	}
	return out
}

// NewContentItem checks and converts one content item. full renders text
// past InlineTextCap too, for the "Show full text" request.
func NewContentItem(i int, raw json.RawMessage, urls ContentURLs, full bool) ContentItemProps {
	var c contentJSON
	if err := json.Unmarshal(raw, &c); err != nil {
		return ContentItemProps{Type: "unknown", Index: i, Raw: prettyJSON(raw)}
	}
	p := ContentItemProps{Type: c.Type, Index: i, Annotations: annotationTags(c.Annotations)}
	switch c.Type {
	case "text":
		p.setText(c.Text, true, urls, full)
	case "image":
		p.setImage(c.MIMEType, c.Data)
	case "audio":
		p.setAudio(c.MIMEType, c.Data)
	case "resource_link":
		name := c.Name
		if c.Title != "" {
			name = c.Title
		}
		l := &ResourceLinkProps{Name: name, URI: c.URI, MIME: c.MIMEType, PreviewID: ""}
		if c.Size != nil {
			l.Size = humanBytes(*c.Size)
		}
		if urls.Read != nil {
			l.ReadURL = urls.Read(c.URI)
		}
		p.Link = l
	case "resource":
		if c.Resource == nil {
			p.Type, p.Raw = "unknown", prettyJSON(raw)
			break
		}
		p.setResource(*c.Resource, urls, full)
	default:
		p.Type, p.Raw = "unknown", prettyJSON(raw)
	}
	return p
}

// NewResourcePreview converts a resources/read answer into items, for the
// preview a resource_link chip opens.
func NewResourcePreview(raw json.RawMessage) []ContentItemProps {
	var r struct {
		Contents []resourceJSON `json:"contents"`
	}
	_ = json.Unmarshal(raw, &r)
	out := make([]ContentItemProps, 0, len(r.Contents))
	for i, c := range r.Contents {
		p := ContentItemProps{Type: "resource", Index: i}
		p.setResource(c, ContentURLs{}, true)
		out = append(out, p)
	}
	return out
}

func (p *ContentItemProps) setText(text string, markdown bool, urls ContentURLs, full bool) {
	p.Long = len(text) > LongTextChars
	if !full && len(text) > InlineTextCap {
		text = cutUTF8(text, InlineTextCap)
		p.Clipped = true
		if urls.Item != nil {
			p.FullURL = urls.Item(p.Index)
		}
	}
	if markdown {
		p.HTML = RenderMarkdown(text)
	} else {
		p.Code = text
	}
}

func (p *ContentItemProps) setResource(r resourceJSON, urls ContentURLs, full bool) {
	p.URI, p.MIME = r.URI, safeMIME(r.MIMEType)
	switch {
	case r.Text != nil:
		md := p.MIME == "text/markdown" || strings.HasSuffix(strings.ToLower(r.URI), ".md")
		p.setText(*r.Text, md, urls, full)
	case r.Blob != nil && strings.HasPrefix(p.MIME, "image/"):
		p.setImage(p.MIME, *r.Blob)
	case r.Blob != nil:
		if _, err := base64.StdEncoding.DecodeString(*r.Blob); err != nil {
			p.Type, p.Refused = "refused", Message{ID: "ContentRefusedData"}
			return
		}
		p.Download = &DownloadProps{
			Href:     templ.SafeURL("data:" + p.MIME + ";base64," + *r.Blob),
			FileName: fileName(r.URI), MIME: p.MIME,
		}
	}
}

// imageTypes are the image types a card shows, with the bytes each must
// start with. SVG is refused: it can carry script.
var imageTypes = map[string][]string{
	"image/png":  {"\x89PNG\r\n\x1a\n"},
	"image/jpeg": {"\xff\xd8\xff"},
	"image/gif":  {"GIF87a", "GIF89a"},
	"image/webp": {"RIFF"},
}

func (p *ContentItemProps) setImage(mime, data string) {
	mime = strings.ToLower(strings.TrimSpace(mime))
	magic, ok := imageTypes[mime]
	if !ok {
		p.Type, p.Refused = "refused", Message{ID: "ContentRefusedType", Data: map[string]any{"Type": mime}}
		return
	}
	b, err := base64.StdEncoding.DecodeString(data)
	if err != nil || !hasMagic(b, mime, magic) {
		p.Type, p.Refused = "refused", Message{ID: "ContentRefusedData"}
		return
	}
	p.Image, p.MIME = true, mime
	p.Large = len(b) > LargeImage
	p.Src = templ.SafeURL("data:" + mime + ";base64," + data)
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

func (p *ContentItemProps) setAudio(mime, data string) {
	mime = strings.ToLower(strings.TrimSpace(mime))
	if !audioTypes[mime] {
		p.Type, p.Refused = "refused", Message{ID: "ContentRefusedType", Data: map[string]any{"Type": mime}}
		return
	}
	if _, err := base64.StdEncoding.DecodeString(data); err != nil {
		p.Type, p.Refused = "refused", Message{ID: "ContentRefusedData"}
		return
	}
	p.MIME = mime
	p.Src = templ.SafeURL("data:" + mime + ";base64," + data)
}

func annotationTags(a *annotationJSON) []Message {
	if a == nil {
		return nil
	}
	var out []Message
	if len(a.Audience) > 0 {
		out = append(out, Message{ID: "ContentAudience", Data: map[string]any{"Audience": strings.Join(a.Audience, ", ")}})
	}
	if a.Priority != nil {
		out = append(out, Message{ID: "ContentPriority", Data: map[string]any{"Priority": strconv.FormatFloat(*a.Priority, 'g', 3, 64)}})
	}
	return out
}

var mimeRE = regexp.MustCompile(`^[a-z0-9][a-z0-9.+-]*/[a-z0-9][a-z0-9.+-]*$`)

// safeMIME keeps a MIME type that cannot break out of a data: URI.
func safeMIME(m string) string {
	m = strings.ToLower(strings.TrimSpace(strings.SplitN(m, ";", 2)[0]))
	if !mimeRE.MatchString(m) {
		return "application/octet-stream"
	}
	return m
}

// fileName is the last path segment of a resource URI, for a download.
func fileName(uri string) string {
	name := uri
	if u, err := url.Parse(uri); err == nil {
		if u.Opaque != "" {
			name = u.Opaque
		} else {
			name = u.Path
		}
	}
	name = path.Base(strings.TrimRight(name, "/"))
	if name == "." || name == "/" || name == "" {
		return "resource"
	}
	return name
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// prettyJSON indents raw JSON; anything else is returned as it is.
func prettyJSON(raw []byte) string {
	var buf bytes.Buffer
	if err := json.Indent(&buf, raw, "", "  "); err != nil {
		return string(raw)
	}
	return buf.String()
}

// cutUTF8 cuts s to at most n bytes without splitting a character.
func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

func itoa(i int) string { return strconv.Itoa(i) }
