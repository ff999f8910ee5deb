package handlers_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"strconv"
	"testing"

	"github.com/andybalholm/brotli"

	"github.com/switchboard-mcp/switchboard/handlers"
	"github.com/switchboard-mcp/switchboard/static"
)

// TestHashedAssetEncodings: a hashed asset goes out as brotli to a client
// that takes it, else gzip, else plain, every time with its length, its
// type, Vary and the year-long immutable caching, and each body decodes
// to the same bytes.
func TestHashedAssetEncodings(t *testing.T) {
	f := newFixture(t)
	for _, name := range []string{static.DashboardJS, static.DashboardCSS, static.WorkbenchJS, static.WorkbenchCSS, static.SignInCSS} {
		path := handlers.AssetURL(name)
		var plain []byte
		for _, tt := range []struct{ accept, encoding string }{
			{"", ""}, {"gzip", "gzip"}, {"gzip, deflate, br", "br"}, {"br;q=0, gzip", "gzip"}, {"deflate", ""},
		} {
			resp, body := f.rawGet(t, path, tt.accept)
			h := resp.Header
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("%s (%q): %d", path, tt.accept, resp.StatusCode)
			}
			if got := h.Get("Content-Encoding"); got != tt.encoding {
				t.Errorf("%s (%q): Content-Encoding %q, want %q", path, tt.accept, got, tt.encoding)
			}
			if got := h.Get("Cache-Control"); got != "public, max-age=31536000, immutable" {
				t.Errorf("%s: Cache-Control %q", path, got)
			}
			if got := h.Values("Vary"); len(got) != 1 || got[0] != "Accept-Encoding" {
				t.Errorf("%s: Vary %q, want Accept-Encoding once", path, got)
			}
			if got := h.Get("Content-Length"); got != strconv.Itoa(len(body)) {
				t.Errorf("%s (%q): Content-Length %s for %d bytes", path, tt.accept, got, len(body))
			}
			if ct := h.Get("Content-Type"); ct != "text/css; charset=utf-8" && ct != "text/javascript; charset=utf-8" {
				t.Errorf("%s: Content-Type %q", path, ct)
			}
			decoded := decodeBody(t, tt.encoding, body)
			if plain == nil {
				plain = decoded
			} else if !bytes.Equal(decoded, plain) {
				t.Errorf("%s (%q): the body decodes to other bytes", path, tt.accept)
			}
		}
	}
}

// TestSourceFilesStillServed: a source file's own address keeps working
// for anything that still asks for it, revalidated rather than kept.
func TestSourceFilesStillServed(t *testing.T) {
	f := newFixture(t)
	resp, body := f.rawGet(t, handlers.PathStatic+"/js/app.js", "")
	if resp.StatusCode != http.StatusOK || len(body) == 0 || resp.Header.Get("Cache-Control") != "no-cache" {
		t.Errorf("source file: %d, %d bytes, Cache-Control %q; want 200 and no-cache", resp.StatusCode, len(body), resp.Header.Get("Cache-Control"))
	}
	for _, p := range []string{handlers.PathStatic + "/dashboard.000000000000.js", handlers.PathStatic + "/dashboard.js"} {
		if resp, _ := f.rawGet(t, p, "br"); resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", p, resp.StatusCode)
		}
	}
}

func decodeBody(t *testing.T, encoding string, body []byte) []byte {
	t.Helper()
	var r io.Reader = bytes.NewReader(body)
	switch encoding {
	case "gzip":
		zr, err := gzip.NewReader(r)
		if err != nil {
			t.Fatal(err)
		}
		r = zr
	case "br":
		r = brotli.NewReader(r)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("decode %s: %v", encoding, err)
	}
	return out
}
