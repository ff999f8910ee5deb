package static_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/andybalholm/brotli"

	"github.com/switchboard-mcp/switchboard/static"
)

// TestHashedNameFollowsContent: a changed source gives its bundle a new
// file name, so a browser that kept the old one for a year asks again.
func TestHashedNameFollowsContent(t *testing.T) {
	bundles := []static.Bundle{{Name: "page.css", Minify: true, Sources: []string{"a.css"}}}
	build := func(css string) string {
		t.Helper()
		a, err := static.Build(fstest.MapFS{"a.css": {Data: []byte(css)}}, bundles)
		if err != nil {
			t.Fatal(err)
		}
		return a.File("page.css")
	}
	one, same, other := build("p { color: red; }"), build("p { color: red; }"), build("p { color: blue; }")
	if one != same {
		t.Errorf("same bytes, two names: %q and %q", one, same)
	}
	if one == other {
		t.Errorf("changed bytes kept the name %q", one)
	}
	if !strings.HasPrefix(one, "page.") || !strings.HasSuffix(one, ".css") || len(one) != len("page..css")+12 {
		t.Errorf("name %q, want page.<12 hex digits>.css", one)
	}
}

// TestScriptsJoinSafely: a script ending without a semicolon must not
// become a call of the next one's opening parenthesis.
func TestScriptsJoinSafely(t *testing.T) {
	files := fstest.MapFS{
		"a.js": {Data: []byte("var a = 1\n")},
		"b.js": {Data: []byte("(function () { window.b = a })()\n")},
	}
	a, err := static.Build(files, []static.Bundle{{Name: "x.js", Minify: true, Sources: []string{"a.js", "b.js"}}})
	if err != nil {
		t.Fatal(err)
	}
	body := string(bundleOf(t, a, "x.js").Body)
	if strings.Contains(body, "1(") {
		t.Errorf("joined scripts run together: %q", body)
	}
}

func TestBrokenSourceFailsTheBuild(t *testing.T) {
	files := fstest.MapFS{"a.js": {Data: []byte("function (")}}
	if _, err := static.Build(files, []static.Bundle{{Name: "x.js", Minify: true, Sources: []string{"a.js"}}}); err == nil {
		t.Errorf("a script that does not parse built")
	}
	if _, err := static.Build(files, []static.Bundle{{Name: "x.js", Sources: []string{"missing.js"}}}); err == nil {
		t.Errorf("a missing source built")
	}
}

// TestProjectBundles: every bundle builds from the embedded files, a
// minified one is smaller than its sources and not empty, a vendored one
// is its file byte for byte, and both compressed bodies hold the bytes.
func TestProjectBundles(t *testing.T) {
	a, err := static.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range static.Bundles() {
		as := bundleOf(t, a, b.Name)
		var src []byte
		for _, name := range b.Sources {
			data, err := fs.ReadFile(static.FS, name)
			if err != nil {
				t.Fatal(err)
			}
			src = append(src, data...)
		}
		switch {
		case len(as.Body) == 0:
			t.Errorf("%s: empty", b.Name)
		case b.Minify && len(as.Body) >= len(src):
			t.Errorf("%s: minified to %d bytes from %d", b.Name, len(as.Body), len(src))
		case !b.Minify && !bytes.Equal(as.Body, src):
			t.Errorf("%s: a vendored file changed", b.Name)
		}
		if b.Minify && strings.HasSuffix(b.Name, ".css") && !bytes.Contains(as.Body, []byte("prefers-reduced-motion")) {
			t.Errorf("%s: lost its reduced-motion rules", b.Name)
		}
		zr, err := gzip.NewReader(bytes.NewReader(as.Gzip))
		if err != nil {
			t.Fatalf("%s: gzip: %v", b.Name, err)
		}
		if got, err := io.ReadAll(zr); err != nil || !bytes.Equal(got, as.Body) {
			t.Errorf("%s: gzip body does not hold the bytes (%v)", b.Name, err)
		}
		if got, err := io.ReadAll(brotli.NewReader(bytes.NewReader(as.Brotli))); err != nil || !bytes.Equal(got, as.Body) {
			t.Errorf("%s: brotli body does not hold the bytes (%v)", b.Name, err)
		}
		if len(as.Brotli) >= len(as.Body) || len(as.Gzip) >= len(as.Body) {
			t.Errorf("%s: compressed bodies (%d br, %d gzip) not smaller than %d", b.Name, len(as.Brotli), len(as.Gzip), len(as.Body))
		}
	}
}

func bundleOf(t *testing.T, a *static.Assets, name string) *static.Asset {
	t.Helper()
	as, ok := a.Lookup(a.File(name))
	if !ok {
		t.Fatalf("%s: no asset under %q", name, a.File(name))
	}
	return as
}
