package handlers_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/handlers"
)

// mediaItems are the content items of the media fixture's result, in
// order, with the bytes each holds.
var mediaItems = func() []struct{ json, data string } {
	png := "\x89PNG\r\n\x1a\n" + strings.Repeat("pixels\x00\xff", 200<<10/8) // past the inline cap
	wav := "RIFF\x00\x00\x00\x00WAVEfmt " + strings.Repeat("\x00\x7f", 1000)
	svg := `<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>`
	html := `<script>alert(document.cookie)</script>`
	bin := "\x00\x01\x02\x03"
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	return []struct{ json, data string }{
		{`{"type":"text","text":"hello"}`, ""},
		{`{"type":"image","mimeType":"image/png","data":"` + b64(png) + `"}`, png},
		{`{"type":"audio","mimeType":"audio/wav","data":"` + b64(wav) + `"}`, wav},
		{`{"type":"image","mimeType":"image/svg+xml","data":"` + b64(svg) + `"}`, svg},
		{`{"type":"resource","resource":{"uri":"file:///site/page.html","mimeType":"text/html","blob":"` + b64(html) + `"}}`, html},
		{`{"type":"resource","resource":{"uri":"file:///data/c \"odd\".bin","mimeType":"application/octet-stream","blob":"` + b64(bin) + `"}}`, bin},
		{`{"type":"resource","resource":{"uri":"file:///img/big.png","mimeType":"image/png","blob":"` + b64(png) + `"}}`, png},
		{`{"type":"image","mimeType":"image/png","data":"` + b64(png)[:1001] + `"}`, ""},
	}
}()

// mediaCall runs one call in scope whose result holds mediaItems and
// returns its id.
func mediaCall(t *testing.T, f *invFixture, scope domain.Scope) string {
	t.Helper()
	sub := f.svc.Feed().Subscribe(scope)
	defer sub.Close()
	inv, err := f.svc.Start(t.Context(), domain.CallRequest{Scope: scope, Server: "demo", Tool: "echo", Arguments: json.RawMessage(`{}`)})
	if err != nil {
		t.Fatal(err)
	}
	f.waitInvocation(t, sub, inv.ID, domain.InvocationSuccess)
	return inv.ID
}

func newMediaFixture(t *testing.T) *invFixture {
	t.Helper()
	f := newInvFixture(t)
	items := make([]string, len(mediaItems))
	for i, it := range mediaItems {
		items[i] = it.json
	}
	result := `{"content":[` + strings.Join(items, ",") + `]}`
	f.sess.OnCall(func(context.Context, string, json.RawMessage, func(domain.Progress)) (json.RawMessage, error) {
		return json.RawMessage(result), nil
	})
	return f
}

func mediaPath(id, item string) string {
	return handlers.InvocationPath(handlers.PathUIInvocationMedia, id) + "?item=" + item
}

// getMedia fetches path and returns the response with its body read.
func getMedia(t *testing.T, f *invFixture, path string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, f.srv.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := f.srv.Client().Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: read body: %v", path, err)
	}
	return resp, body
}

// TestCardReferencesLargeMedia: the card of a result with media past the
// inline cap points at the media endpoint instead of inlining them, and
// keeps the small ones inline.
func TestCardReferencesLargeMedia(t *testing.T) {
	f := newMediaFixture(t)
	id := mediaCall(t, f, testScope)
	status, card := f.do(t, http.MethodGet, handlers.InvocationPath(handlers.PathUIInvocation, id), nil)
	if status != http.StatusOK || len(card) > 64<<10 {
		t.Fatalf("card: got %d with %d bytes, want 200 and a small card", status, len(card))
	}
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(card))
	if err != nil {
		t.Fatal(err)
	}
	for item, want := range map[string]string{
		`[data-index="1"] img`:   mediaPath(id, "1"),
		`[data-index="6"] img`:   mediaPath(id, "6"),
		`[data-index="2"] audio`: "data:audio/wav;base64,",
		`[data-index="5"] a`:     "data:application/octet-stream;base64,",
	} {
		n := doc.Find(`[data-testid="content-item"]` + item)
		if got := n.AttrOr("src", n.AttrOr("href", "")); !strings.HasPrefix(got, want) {
			t.Errorf("%s: got %.60q, want %q", item, got, want)
		}
	}
	if got := strings.TrimSpace(doc.Find(`[data-index="7"] [data-testid="content-refused"]`).Text()); !strings.Contains(got, "cut short") {
		t.Errorf("cut image: got note %q, want it to say the data was cut short", got)
	}
}

// TestMediaEndpoint: the endpoint answers the exact decoded bytes with the
// item's type; only images and audio a card shows are answered inline,
// SVG, HTML and other blobs only as attachments the browser cannot
// render or sniff.
func TestMediaEndpoint(t *testing.T) {
	f := newMediaFixture(t)
	id := mediaCall(t, f, testScope)
	tests := []struct {
		item, mime, disposition string
	}{
		{"1", "image/png", ""},
		{"2", "audio/wav", ""},
		{"3", "image/svg+xml", `attachment; filename=invocation-` + id + `-item-3`},
		{"4", "text/html", `attachment; filename=page.html`},
		{"5", "application/octet-stream", `attachment; filename="c \"odd\".bin"`},
		{"6", "image/png", ""},
	}
	for _, tt := range tests {
		t.Run(tt.item, func(t *testing.T) {
			resp, body := getMedia(t, f, mediaPath(id, tt.item))
			want := mediaItems[[]byte(tt.item)[0]-'0'].data
			if resp.StatusCode != http.StatusOK || string(body) != want {
				t.Fatalf("got %d with %d bytes, want 200 and the %d bytes of the item", resp.StatusCode, len(body), len(want))
			}
			h := resp.Header
			if got := h.Get("Content-Type"); got != tt.mime {
				t.Errorf("Content-Type: got %q, want %q", got, tt.mime)
			}
			if got := h.Get("Content-Disposition"); got != tt.disposition {
				t.Errorf("Content-Disposition: got %q, want %q", got, tt.disposition)
			}
			if got := h.Get("X-Content-Type-Options"); got != "nosniff" {
				t.Errorf("X-Content-Type-Options: got %q, want nosniff", got)
			}
			if sandboxed := strings.Contains(h.Get("Content-Security-Policy"), "sandbox"); sandboxed != (tt.disposition != "") {
				t.Errorf("CSP sandbox: got %v, want %v (CSP %q)", sandboxed, tt.disposition != "", h.Get("Content-Security-Policy"))
			}
		})
	}
}

// TestMediaEndpointNotFound: items that hold no valid media, items that
// do not exist and calls of another scope are all 404.
func TestMediaEndpointNotFound(t *testing.T) {
	f := newMediaFixture(t)
	id := mediaCall(t, f, testScope)
	other := mediaCall(t, f, domain.Scope{User: "mallory", Workspace: "test"})
	for name, path := range map[string]string{
		"text-item":     mediaPath(id, "0"),
		"cut-data":      mediaPath(id, "7"),
		"past-the-end":  mediaPath(id, "8"),
		"negative":      mediaPath(id, "-1"),
		"not-a-number":  mediaPath(id, "one"),
		"no-item":       handlers.InvocationPath(handlers.PathUIInvocationMedia, id),
		"unknown-call":  mediaPath("no-such-call", "1"),
		"another-scope": mediaPath(other, "1"),
	} {
		t.Run(name, func(t *testing.T) {
			status, body := f.do(t, http.MethodGet, path, nil)
			wantError(t, status, body, http.StatusNotFound, "not_found")
		})
	}
}
