//go:build e2e

package e2e

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	playwright "github.com/mxschmitt/playwright-go"
)

// mediaServerJS is a minimal MCP stdio server with one tool, big_media,
// that answers the content items in the JSON file named by its argument.
const mediaServerJS = `const fs = require('fs');
const readline = require('readline');
const content = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const send = m => process.stdout.write(JSON.stringify(Object.assign({jsonrpc: '2.0'}, m)) + '\n');
readline.createInterface({input: process.stdin}).on('line', line => {
  let m;
  try { m = JSON.parse(line); } catch (e) { return; }
  if (m.id === undefined) { return; }
  switch (m.method) {
  case 'initialize':
    send({id: m.id, result: {protocolVersion: m.params.protocolVersion, capabilities: {tools: {}}, serverInfo: {name: 'media', version: '1.0.0'}}});
    break;
  case 'tools/list':
    send({id: m.id, result: {tools: [{name: 'big_media', description: 'Large media.', inputSchema: {type: 'object'}}]}});
    break;
  case 'tools/call':
    send({id: m.id, result: {content}});
    break;
  case 'ping':
    send({id: m.id, result: {}});
    break;
  default:
    send({id: m.id, error: {code: -32601, message: 'method not found'}});
  }
});
`

// noisePNG is a side x side PNG of noise, which does not compress: about
// 4*side*side bytes.
func noisePNG(t *testing.T, side int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, side, side))
	x := uint32(2463534242)
	for i := range img.Pix {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		img.Pix[i] = byte(x)
	}
	for i := 3; i < len(img.Pix); i += 4 {
		img.Pix[i] = 0xff
	}
	img.Set(0, 0, color.NRGBA{A: 0xff})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// silentWAV is seconds of 8 kHz, 8-bit mono silence.
func silentWAV(seconds int) []byte {
	const rate = 8000
	n := rate * seconds
	var b bytes.Buffer
	le := func(v any) {
		switch v := v.(type) {
		case uint16:
			b.Write([]byte{byte(v), byte(v >> 8)})
		case uint32:
			b.Write([]byte{byte(v), byte(v >> 8), byte(v >> 16), byte(v >> 24)})
		}
	}
	b.WriteString("RIFF")
	le(uint32(36 + n))
	b.WriteString("WAVEfmt ")
	le(uint32(16))
	le(uint16(1)) // PCM
	le(uint16(1)) // mono
	le(uint32(rate))
	le(uint32(rate)) // bytes per second
	le(uint16(1))    // block align
	le(uint16(8))    // bits per sample
	b.WriteString("data")
	le(uint32(n))
	b.Write(bytes.Repeat([]byte{0x80}, n))
	return b.Bytes()
}

// mediaServer writes the media server and its content to t.TempDir() and
// returns its settings entry.
func mediaServer(t *testing.T, content []map[string]any) map[string]any {
	t.Helper()
	dir := t.TempDir()
	js, data := filepath.Join(dir, "media.js"), filepath.Join(dir, "content.json")
	b, err := json.Marshal(content)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(js, []byte(mediaServerJS), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(data, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return map[string]any{"command": "node", "args": []string{js, data}}
}

// TestInvocationLargeMedia: an image, audio and blob past the inline cap
// reach the card by URL from the media endpoint, not as data: URIs; the
// browser loads them with its session cookie under the page's CSP, the
// full-size view opens, the audio plays and the blob downloads whole.
func TestInvocationLargeMedia(t *testing.T) {
	pic, wav := noisePNG(t, 300), silentWAV(10)
	blob := bytes.Repeat([]byte("blob\x00\x01"), 50_000)
	b64 := base64.StdEncoding.EncodeToString
	in := startWith(t, servers{"media": mediaServer(t, []map[string]any{
		{"type": "image", "mimeType": "image/png", "data": b64(pic)},
		{"type": "audio", "mimeType": "audio/wav", "data": b64(wav)},
		{"type": "resource", "resource": map[string]any{"uri": "file:///out/noise.bin", "mimeType": "application/octet-stream", "blob": b64(blob)}},
	})})
	in.waitState(t, "media", "connected")
	page := openCards(t, in, playwright.BrowserNewContextOptions{})
	var mu sync.Mutex
	var csp []string
	page.OnConsole(func(m playwright.ConsoleMessage) {
		if strings.Contains(m.Text(), "Content Security Policy") {
			mu.Lock()
			csp = append(csp, m.Text())
			mu.Unlock()
		}
	})

	inv := callTool(t, in, "media", "big_media", map[string]any{})
	card := feedCard(inv.ID)
	waitCard(t, page, inv.ID, "success")
	mediaURL := func(item string) string { return "/ui/invocations/" + inv.ID + "/media?item=" + item }

	img := card + ` [data-index="0"] img[data-testid="content-image"]`
	waitFor(t, page, img, "the large image")
	if src := attr(t, page, img, "src"); src != mediaURL("0") {
		t.Errorf("image src: got %.60q, want %q", src, mediaURL("0"))
	}
	waitTrue(t, page, `sel => { const i = document.querySelector(sel); i.loading = 'eager'; return i.complete && i.naturalWidth === 300; }`, img,
		"the large image loads from the media endpoint (naturalWidth 300)")
	click(t, page, card+` [data-index="0"] [data-testid="content-image-open"]`)
	overlay := `[data-testid="image-overlay"]`
	waitTrue(t, page, `sel => { const i = document.querySelector(sel + ' img'); return i && i.complete && i.naturalWidth === 300; }`, overlay,
		"the overlay shows the large image full size")
	press(t, page, "Escape")

	audio := card + ` [data-index="1"] audio[data-testid="content-audio"]`
	if src := attr(t, page, audio, "src"); src != mediaURL("1") {
		t.Errorf("audio src: got %.60q, want %q", src, mediaURL("1"))
	}
	waitTrue(t, page, `sel => { const a = document.querySelector(sel); return a.readyState >= 1 && Math.abs(a.duration - 10) < 0.1; }`, audio,
		"the audio's metadata loads from the media endpoint (10 s)")

	dl := card + ` [data-index="2"] a[data-testid="content-download"]`
	if href := attr(t, page, dl, "href"); href != mediaURL("2") {
		t.Errorf("blob href: got %.60q, want %q", href, mediaURL("2"))
	}
	if name := attr(t, page, dl, "download"); name != "noise.bin" {
		t.Errorf("blob download name: got %q, want noise.bin", name)
	}
	var got struct {
		Status int
		Size   int
		Type   string
		Disp   string
	}
	evalJSON(t, page, `href => fetch(href).then(async r => JSON.stringify({Status: r.status, Size: (await r.arrayBuffer()).byteLength,
		Type: r.headers.get('content-type'), Disp: r.headers.get('content-disposition')}))`, mediaURL("2"), &got)
	if got.Status != 200 || got.Size != len(blob) || got.Type != "application/octet-stream" || got.Disp != "attachment; filename=noise.bin" {
		t.Errorf("blob fetch: got %+v, want 200 with %d bytes of application/octet-stream as attachment noise.bin", got, len(blob))
	}
	var cardHTML int
	evalJSON(t, page, `sel => JSON.stringify(document.querySelector(sel).outerHTML.length)`, card, &cardHTML)
	if cardHTML > 64<<10 {
		t.Errorf("card: got %d characters of HTML, want the media out of it (under 64 KiB)", cardHTML)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(csp) > 0 {
		t.Errorf("CSP violations: %q", csp)
	}
}
