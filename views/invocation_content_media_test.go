package views_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

// mediaURLs are boundURLs with the media endpoint.
var mediaURLs = func() views.CardURLs {
	u := boundURLs
	u.Media = func(i int) string { return fmt.Sprintf("/media?item=%d", i) }
	return u
}()

// payload is n bytes that start with head, base64-encoded.
func payload(head string, n int) string {
	b := bytes.Repeat([]byte("media\x00\x01\xfe"), n/8+1)[:n]
	copy(b, head)
	return base64.StdEncoding.EncodeToString(b)
}

const pngMagic = "\x89PNG\r\n\x1a\n"

func imageItem(mime, data string) string {
	return `{"type":"image","mimeType":"` + mime + `","data":"` + data + `"}`
}

func audioItem(mime, data string) string {
	return `{"type":"audio","mimeType":"` + mime + `","data":"` + data + `"}`
}

func blobItem(uri, mime, data string) string {
	return `{"type":"resource","resource":{"uri":"` + uri + `","mimeType":"` + mime + `","blob":"` + data + `"}}`
}

func resultOf(items ...string) string {
	return `{"content":[` + strings.Join(items, ",") + `]}`
}

// renderMediaCard renders the card of result with the media endpoint and
// checks it stays under maxCardHTML.
func renderMediaCard(t *testing.T, result string) *goquery.Document {
	t.Helper()
	p := views.NewInvocationCardProps(invAt(domain.InvocationSuccess, result), views.CardInput{URLs: mediaURLs})
	html := renderHTML(t, "en", views.InvocationCard(p))
	t.Logf("%d bytes of result, %d bytes of card", len(result), len(html))
	if len(html) > maxCardHTML {
		t.Errorf("card: got %d bytes of HTML, want at most %d", len(html), maxCardHTML)
	}
	return parseHTML(t, html)
}

// TestBigMediaIsReferencedNotInlined: a card holding a 10 MB image, a
// 10 MB audio and a 10 MB blob (and an image blob past InlineMediaCap)
// stays under maxCardHTML, and points at the media endpoint for each item
// instead of inlining it.
func TestBigMediaIsReferencedNotInlined(t *testing.T) {
	const big = 10 << 20
	doc := renderMediaCard(t, resultOf(
		imageItem("image/png", payload(pngMagic, big)),
		audioItem("audio/wav", payload("RIFF\x00\x00\x00\x00WAVEfmt ", big)),
		blobItem("file:///data/big.bin", "application/octet-stream", payload("", big)),
		blobItem("file:///img/big.png", "image/png", payload(pngMagic, 1<<20)),
	))
	if n := doc.Find(`[data-testid="content-refused"]`).Length(); n != 0 {
		t.Errorf("refused items: got %d, want 0", n)
	}
	for i, sel := range []string{`img[data-testid="content-image"]`, `audio[data-testid="content-audio"]`,
		`a[data-testid="content-download"]`, `img[data-testid="content-image"]`} {
		n := doc.Find(fmt.Sprintf(`[data-testid="content-item"][data-index="%d"] %s`, i, sel))
		if n.Length() != 1 {
			t.Errorf("item %d: no %s", i, sel)
			continue
		}
		if got, want := n.AttrOr("src", n.AttrOr("href", "")), fmt.Sprintf("/media?item=%d", i); got != want {
			t.Errorf("item %d: got %.60q, want %q", i, got, want)
		}
	}
	if got := doc.Find(`a[data-testid="content-download"]`).AttrOr("download", ""); got != "big.bin" {
		t.Errorf("download name: got %q, want big.bin", got)
	}
	img := doc.Find(`[data-index="0"] img[data-testid="content-image"]`)
	if !img.HasClass("content-thumb") || img.AttrOr("loading", "") != "lazy" {
		t.Errorf("big image: got class %q loading %q, want a lazy thumbnail", img.AttrOr("class", ""), img.AttrOr("loading", ""))
	}
	if n := doc.Find(`[data-testid="content-image-open"]`).Length(); n != 2 {
		t.Errorf("full-size views: got %d, want one per image (2)", n)
	}
}

// TestSmallMediaStaysInline: items under InlineMediaCap are still data:
// URIs, so a card needs no second request for a thumbnail or a beep.
func TestSmallMediaStaysInline(t *testing.T) {
	wav := base64.StdEncoding.EncodeToString([]byte("RIFF....WAVEfmt "))
	blob := base64.StdEncoding.EncodeToString([]byte{0, 1, 2, 3})
	doc := renderMediaCard(t, resultOf(imageItem("image/png", invPNG), audioItem("audio/wav", wav),
		blobItem("file:///c.bin", "application/octet-stream", blob), blobItem("file:///d.png", "image/png", invPNG)))
	for sel, want := range map[string]string{
		`[data-index="0"] img`:   "data:image/png;base64," + invPNG,
		`[data-index="1"] audio`: "data:audio/wav;base64," + wav,
		`[data-index="2"] a`:     "data:application/octet-stream;base64," + blob,
		`[data-index="3"] img`:   "data:image/png;base64," + invPNG,
	} {
		n := doc.Find(`[data-testid="content-item"]` + sel)
		if got := n.AttrOr("src", n.AttrOr("href", "")); got != want {
			t.Errorf("%s: got %q, want %q", sel, got, want)
		}
	}
}

// TestManyMediumImagesShareTheBudget: a hundred images each just under
// InlineMediaCap would still make a 6 MB card; past CardMediaBudget the
// rest are referenced.
func TestManyMediumImagesShareTheBudget(t *testing.T) {
	png := payload(pngMagic, (views.InlineMediaCap-100)*3/4)
	items := make([]string, 100)
	for i := range items {
		items[i] = imageItem("image/png", png)
	}
	doc := renderMediaCard(t, resultOf(items...))
	var inline, referenced int
	doc.Find(`img[data-testid="content-image"]`).Each(func(i int, s *goquery.Selection) {
		switch src := s.AttrOr("src", ""); {
		case strings.HasPrefix(src, "data:image/png;base64,"):
			inline++
		case src == fmt.Sprintf("/media?item=%d", i):
			referenced++
		default:
			t.Errorf("image %d: got src %.60q", i, src)
		}
	})
	if want := views.CardMediaBudget / views.InlineMediaCap; inline < 1 || inline > want {
		t.Errorf("inline images: got %d, want 1 to %d", inline, want)
	}
	if inline+referenced != 100 {
		t.Errorf("images: got %d inline and %d referenced, want 100 in all", inline, referenced)
	}
}

// TestBadMediaDataIsExplained: data cut short (as a stored result cut at
// its cap would be) or not base64 at all is refused with a note saying
// which, never drawn as a broken image, large or small.
func TestBadMediaDataIsExplained(t *testing.T) {
	big := payload(pngMagic, 1<<20)
	tests := []struct {
		name, item, note string
	}{
		{"small-image-cut", imageItem("image/png", invPNG[:len(invPNG)-3]), "Not shown: the data was cut short, so it is incomplete."},
		{"big-image-cut", imageItem("image/png", big[:len(big)-5]), "Not shown: the data was cut short, so it is incomplete."},
		{"big-audio-cut", audioItem("audio/wav", big[:len(big)-1]), "Not shown: the data was cut short, so it is incomplete."},
		{"big-blob-cut", blobItem("file:///x.bin", "application/octet-stream", big[:len(big)-2]), "Not shown: the data was cut short, so it is incomplete."},
		{"big-image-not-base64", imageItem("image/png", big[:1000]+"%%%%"+big[1004:]), "Not shown: the data is not valid for its type."},
		{"big-blob-not-base64", blobItem("file:///x.bin", "application/octet-stream", "!!!!"+big[4:]), "Not shown: the data is not valid for its type."},
		{"big-image-wrong-magic", imageItem("image/png", payload("GIF89a", 1<<20)), "Not shown: the data is not valid for its type."},
		{"huge-mime", imageItem(strings.Repeat("x", 1<<20), invPNG), "Not shown: the type " + strings.Repeat("x", 100) + " is not allowed here."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := renderMediaCard(t, resultOf(tt.item))
			if n := doc.Find("img, audio, a[data-testid=content-download]").Length(); n != 0 {
				t.Errorf("media shown: %d elements", n)
			}
			if got := strings.TrimSpace(doc.Find(`[data-testid="content-refused"]`).Text()); got != tt.note {
				t.Errorf("note: got %.120q, want %.120q", got, tt.note)
			}
		})
	}
}

// TestBigToolIconIsDropped: a tool's icon is drawn on every card of the
// tool, so one past InlineMediaCap gives the generic icon instead.
func TestBigToolIconIsDropped(t *testing.T) {
	small := &domain.Tool{Name: "echo", IconURLs: []string{"data:image/png;base64," + invPNG}}
	big := &domain.Tool{Name: "echo", IconURLs: []string{"data:image/png;base64," + payload(pngMagic, 1<<20)}}
	inv := invAt(domain.InvocationSuccess, resultOf())
	if p := views.NewInvocationCardProps(inv, views.CardInput{Tool: small, URLs: mediaURLs}); p.Icon == "" {
		t.Errorf("small icon: dropped")
	}
	if p := views.NewInvocationCardProps(inv, views.CardInput{Tool: big, URLs: mediaURLs}); p.Icon != "" {
		t.Errorf("big icon: got %d bytes inlined, want the generic icon", len(p.Icon))
	}
}

// TestContentMedia: the bytes the media endpoint serves, and whether a
// browser may render them in place.
func TestContentMedia(t *testing.T) {
	pngBytes, _ := base64.StdEncoding.DecodeString(invPNG)
	svg := []byte(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>`)
	html := []byte(`<script>alert(1)</script>`)
	wav := []byte("RIFF....WAVEfmt ")
	b64 := base64.StdEncoding.EncodeToString
	tests := []struct {
		name   string
		item   string
		ok     bool
		data   []byte
		mime   string
		inline bool
		file   string
	}{
		{"png", imageItem("image/png", invPNG), true, pngBytes, "image/png", true, ""},
		{"png-upper-case-type", imageItem(" IMAGE/PNG ", invPNG), true, pngBytes, "image/png", true, ""},
		{"png-lying-about-its-type", imageItem("image/png", b64([]byte("GIF89a lies"))), true, []byte("GIF89a lies"), "image/png", false, ""},
		{"svg-image", imageItem("image/svg+xml", b64(svg)), true, svg, "image/svg+xml", false, ""},
		{"html-image", imageItem("text/html", b64(html)), true, html, "text/html", false, ""},
		{"wav", audioItem("audio/wav", b64(wav)), true, wav, "audio/wav", true, ""},
		{"html-audio", audioItem("text/html", b64(html)), true, html, "text/html", false, ""},
		{"png-as-audio", audioItem("image/png", invPNG), true, pngBytes, "image/png", false, ""},
		{"blob", blobItem("file:///data/c.bin", "application/octet-stream", b64([]byte{0, 1, 2})), true, []byte{0, 1, 2}, "application/octet-stream", false, "c.bin"},
		{"blob-png", blobItem("file:///img/d.png", "image/png", invPNG), true, pngBytes, "image/png", true, "d.png"},
		{"blob-svg", blobItem("file:///img/e.svg", "image/svg+xml", b64(svg)), true, svg, "image/svg+xml", false, "e.svg"},
		{"blob-html", blobItem("file:///f.html", "text/html; charset=utf-8", b64(html)), true, html, "text/html", false, "f.html"},
		{"blob-odd-type", blobItem("file:///g", "text/html\\r\\nX-Evil: 1", b64(html)), true, html, "application/octet-stream", false, "g"},
		{"bad-base64", imageItem("image/png", "%%%"), false, nil, "", false, ""},
		{"cut-base64", imageItem("image/png", invPNG[:10]), false, nil, "", false, ""},
		{"text", `{"type":"text","text":"hi"}`, false, nil, "", false, ""},
		{"text-resource", `{"type":"resource","resource":{"uri":"x","text":"hi"}}`, false, nil, "", false, ""},
		{"not-json", `{"type":`, false, nil, "", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, ok := views.ContentMedia(json.RawMessage(tt.item))
			if ok != tt.ok {
				t.Fatalf("ok: got %v, want %v", ok, tt.ok)
			}
			if !bytes.Equal(m.Data, tt.data) || m.MIME != tt.mime || m.Inline != tt.inline || m.FileName != tt.file {
				t.Errorf("got %q %q inline=%v file=%q, want %q %q inline=%v file=%q", m.Data, m.MIME, m.Inline, m.FileName, tt.data, tt.mime, tt.inline, tt.file)
			}
		})
	}
}
