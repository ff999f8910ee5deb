package views

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/a-h/templ"

	"github.com/switchboard-mcp/switchboard/domain"
)

// Limits that keep a huge result from freezing the page. The server
// decides: text past InlineTextCap is not sent until asked for, and long
// text is clipped by CSS after 30 lines, with the full text in the DOM.
const (
	LongTextChars = 2000      // text longer than this collapses behind "Show more"
	InlineTextCap = 64 << 10  // bytes of one text item rendered inline
	LargeImage    = 500 << 10 // decoded bytes past which an image starts as a thumbnail
	ArgsLongLines = 100       // argument JSON longer than this collapses

	// A card pushed to every open page stays small whatever a server
	// returns: it shows at most MaxContentItems items, then "N more", and
	// at most CardTextBudget bytes of text and JSON across them; items past
	// the budget offer "Show the full text" instead.
	MaxContentItems = 100
	CardTextBudget  = 192 << 10
)

// ContentItemProps is one item of a CallToolResult's content, checked and
// ready to show. Type is the MCP type, or "refused" when the item could
// not be shown safely (a wrong MIME type, bad base64, bytes that are not
// the image they claim to be).
type ContentItemProps struct {
	Type  string // text, image, audio, resource_link, resource, unknown, refused
	Index int

	HTML    string         // sanitized Markdown (text, embedded text/markdown)
	JSON    *JSONViewProps // text that is a JSON object or array, indented and coloured
	Code    string         // embedded non-Markdown text, shown as a code block
	Long    bool           // over LongTextChars: clipped after 30 lines with "Show more"
	Clipped bool           // cut at InlineTextCap; FullURL renders the whole item
	FullURL string

	Src   templ.SafeURL // a checked data: URI, or past InlineMediaCap the media URL (image, audio)
	MIME  string
	Image bool // Src is a checked image (an image item or an embedded image blob)
	Large bool // an image over LargeImage, shown as a thumbnail first
	// Width and Height are an image's own size in pixels (0 when its
	// header could not be read); ShowWidth and ShowHeight the size it is
	// drawn at, Scaled when that is a whole multiple above its own.
	Width, Height         int
	ShowWidth, ShowHeight int
	Scaled                bool
	Download              *DownloadProps

	Link *ResourceLinkProps
	URI  string // an embedded resource's URI

	Refused Message        // why an item was not shown
	Raw     string         // pretty JSON of an unknown item
	RawView *JSONViewProps // Raw, coloured
	RawCut  bool           // Raw was cut at a cap of the JSON view
	RawURL  string         // where the whole result downloads raw

	Annotations []Message
}

// ResourceLinkProps is a resource_link chip; activating it reads the
// resource through the server and previews it inline.
type ResourceLinkProps struct {
	Name, URI, MIME string
	Size            *int64 // bytes, when the server says; shown through SizeText
	ReadURL         string
	PreviewID       string
}

// DownloadProps is a blob offered as a file.
type DownloadProps struct {
	Href     templ.SafeURL
	FileName string
	MIME     string
}

// ContentURLs builds the endpoints content items call.
type ContentURLs struct {
	Item  func(index int) string // one item in full
	Media func(index int) string // one item's image, audio or blob bytes
	Read  func(uri string) string
	Raw   string // the whole result as stored, for download
}

// media is how item i's bytes reach the page while limit base64 bytes may
// still be inlined.
func (u ContentURLs) media(i, limit int) mediaSrc {
	if u.Media == nil {
		return mediaSrc{}
	}
	return mediaSrc{url: u.Media(i), limit: limit}
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

// NewContentItems checks and converts the first MaxContentItems content
// items, in order, sharing CardTextBudget and CardMediaBudget between
// them; the caller says how many more there are.
func NewContentItems(r domain.Result, urls ContentURLs, full int) []ContentItemProps {
	items := r.Content[:min(len(r.Content), MaxContentItems)]
	out := make([]ContentItemProps, 0, len(items))
	budget, media := CardTextBudget, CardMediaBudget
	for i, raw := range items {
		it := newContentItem(i, raw, urls, i == full, min(InlineTextCap, budget), urls.media(i, min(InlineMediaCap, media)))
		budget = max(budget-len(it.HTML)-escapedLen(it.Code)-it.jsonSize(), 0)
		media = max(media-it.inlineBytes(), 0)
		out = append(out, it)
	}
	return out
}

// NewContentItem checks and converts one content item. full renders text
// past InlineTextCap too, for the "Show full text" request.
func NewContentItem(i int, raw json.RawMessage, urls ContentURLs, full bool) ContentItemProps {
	return newContentItem(i, raw, urls, full, InlineTextCap, urls.media(i, InlineMediaCap))
}

// newContentItem converts one item showing at most limit bytes of its
// text or JSON inline, and its media as media says.
func newContentItem(i int, raw json.RawMessage, urls ContentURLs, full bool, limit int, media mediaSrc) ContentItemProps {
	var c contentJSON
	if err := json.Unmarshal(raw, &c); err != nil {
		p := ContentItemProps{Type: "unknown", Index: i}
		p.setRaw(raw, urls, limit)
		return p
	}
	p := ContentItemProps{Type: c.Type, Index: i, Annotations: annotationTags(c.Annotations)}
	switch c.Type {
	case "text":
		p.setText(c.Text, true, urls, full, limit)
	case "image":
		p.setImage(c.MIMEType, c.Data, media)
	case "audio":
		p.setAudio(c.MIMEType, c.Data, media)
	case "resource_link":
		name := c.Name
		if c.Title != "" {
			name = c.Title
		}
		l := &ResourceLinkProps{Name: shown(name, MaxShownName), URI: shown(c.URI, MaxShownURI), MIME: shown(c.MIMEType, maxShownMIME)}
		l.Size = c.Size
		if urls.Read != nil && len(c.URI) <= MaxShownURI {
			l.ReadURL = urls.Read(c.URI) // a longer URI is named, cut, but not previewed
		}
		p.Link = l
	case "resource":
		if c.Resource == nil {
			p.Type = "unknown"
			p.setRaw(raw, urls, limit)
			break
		}
		p.setResource(*c.Resource, urls, full, limit, media)
	default:
		p.Type = "unknown"
		p.setRaw(raw, urls, limit)
	}
	return p
}

// setRaw shows an item the card cannot render as bounded JSON.
func (p *ContentItemProps) setRaw(raw json.RawMessage, urls ContentURLs, limit int) {
	v := newJSONView(raw, min(limit, JSONViewBytes), nil)
	p.RawView, p.Raw, p.RawCut = &v, v.Text, v.Cut
	if p.RawCut {
		p.RawURL = urls.Raw
	}
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
		p.setResource(c, ContentURLs{}, true, InlineTextCap, mediaSrc{})
		out = append(out, p)
	}
	return out
}

func (p *ContentItemProps) setText(text string, markdown bool, urls ContentURLs, full bool, limit int) {
	p.Long = len(text) > LongTextChars
	if !full && len(text) > limit {
		text = cutUTF8(text, limit)
		p.Clipped = true
		if urls.Item != nil {
			p.FullURL = urls.Item(p.Index)
		}
	}
	p.Code = text
	// JSON keeps its lines: Markdown would join them into one paragraph.
	// Cut JSON no longer parses; an object's start still shows it is one.
	if looksJSON(text) && !p.Clipped && json.Valid([]byte(text)) {
		v := newJSONView([]byte(text), min(limit, JSONViewBytes), nil)
		p.JSON, p.Code, p.Long = &v, "", false
		return
	}
	if p.Clipped && strings.HasPrefix(strings.TrimLeft(text, " \t\r\n"), "{") {
		return
	}
	if markdown && !markdownTooDeep(text) {
		// Markdown can multiply its size (a long table grows ten times);
		// such text is shown as it was written instead.
		if html := RenderMarkdown(text); len(html) <= markdownHTMLCap(len(text)) {
			p.HTML, p.Code = html, ""
		}
	}
}

// looksJSON reports whether text starts as a JSON object or array does.
func looksJSON(text string) bool {
	t := strings.TrimLeft(text, " \t\r\n")
	return strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")
}

// jsonSize is the HTML an item's JSON views add to the card.
func (p ContentItemProps) jsonSize() int {
	n := 0
	for _, v := range []*JSONViewProps{p.JSON, p.RawView} {
		if v != nil {
			n += v.size
		}
	}
	return n
}

// markdownHTMLCap is the most HTML that n bytes of Markdown may become
// before the text is shown unrendered.
func markdownHTMLCap(n int) int { return 4*n + 4096 }

func (p *ContentItemProps) setResource(r resourceJSON, urls ContentURLs, full bool, limit int, media mediaSrc) {
	p.URI, p.MIME = shown(r.URI, MaxShownURI), safeMIME(r.MIMEType)
	switch {
	case r.Text != nil:
		md := p.MIME == "text/markdown" || strings.HasSuffix(strings.ToLower(r.URI), ".md")
		p.setText(*r.Text, md, urls, full, limit)
	case r.Blob != nil && strings.HasPrefix(p.MIME, "image/"):
		p.setImage(p.MIME, *r.Blob, media)
	case r.Blob != nil:
		if _, _, err := checkBase64(*r.Blob); err != nil {
			p.Type, p.Refused = "refused", badData(*r.Blob)
			return
		}
		p.Download = &DownloadProps{Href: media.href(p.MIME, *r.Blob), FileName: shown(fileName(r.URI), MaxShownName), MIME: p.MIME}
	}
}

func annotationTags(a *annotationJSON) []Message {
	if a == nil {
		return nil
	}
	var out []Message
	if len(a.Audience) > 0 {
		out = append(out, Message{ID: "ContentAudience", Data: map[string]any{"Audience": shown(strings.Join(a.Audience, ", "), MaxShownName)}})
	}
	if a.Priority != nil {
		out = append(out, Message{ID: "ContentPriority", Data: map[string]any{"Priority": strconv.FormatFloat(*a.Priority, 'g', 3, 64)}})
	}
	return out
}
