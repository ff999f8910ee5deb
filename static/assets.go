package static

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"sync"

	"github.com/andybalholm/brotli"
	"github.com/tdewolff/minify/v2"
	"github.com/tdewolff/minify/v2/css"
	"github.com/tdewolff/minify/v2/js"
)

// hashLen is how many hex digits of the content's SHA-256 a file name
// carries: enough that two releases never share a name by chance.
const hashLen = 12

// brotliQuality trades a few per cent of size for startup time: the best
// setting (11) takes seconds for the bundles on a small machine, 7 takes
// tens of milliseconds and is still smaller than gzip at its best.
const brotliQuality = 7

// brotliWindow is the log2 of brotli's sliding window. Every bundle is
// smaller than its 64 KB, so no match is lost, and at 16 bits or less the
// encoder picks a hash table of about a megabyte instead of the 8 MB one
// its default window brings: compressing the bundles at startup, while
// every server's handshake is in flight, allocated about 87 MB before and
// about 9 MB now, which is what a process's resident memory remembers.
const brotliWindow = 16

// Asset is one bundle ready to serve: its bytes, compressed both ways once,
// under a file name that changes whenever the bytes do, so a browser may
// keep it forever.
type Asset struct {
	// Name is the bundle's name, e.g. "dashboard.js"; File is the name it
	// is served under, e.g. "dashboard.0123456789ab.js".
	Name, File  string
	ContentType string
	Body        []byte
	Gzip        []byte
	Brotli      []byte
}

// Assets holds the built bundles by name and by file name.
type Assets struct {
	byName map[string]*Asset
	byFile map[string]*Asset
}

// File returns the content-hashed file name of the bundle called name. It
// panics on a name no bundle has: that is a typo in the code, not input.
func (a *Assets) File(name string) string {
	as, ok := a.byName[name]
	if !ok {
		panic(fmt.Sprintf("static: no bundle %q", name))
	}
	return as.File
}

// Lookup returns the asset served under the content-hashed file name file.
func (a *Assets) Lookup(file string) (*Asset, bool) {
	as, ok := a.byFile[file]
	return as, ok
}

// All returns every asset, in no particular order.
func (a *Assets) All() []*Asset {
	out := make([]*Asset, 0, len(a.byName))
	for _, as := range a.byName {
		out = append(out, as)
	}
	return out
}

// load builds the project's bundles from the embedded files once per
// process: they cannot change while it runs, so a second server (tests
// start many) need not minify and compress them again.
var load = sync.OnceValues(func() (*Assets, error) { return Build(FS, Bundles()) })

// Load returns the project's bundles, built on first use.
func Load() (*Assets, error) { return load() }

// Build joins, minifies, hashes and compresses bundles read from fsys.
func Build(fsys fs.FS, bundles []Bundle) (*Assets, error) {
	m := minify.New()
	m.AddFunc("text/css", css.Minify)
	m.AddFunc("text/javascript", js.Minify)
	out := &Assets{byName: map[string]*Asset{}, byFile: map[string]*Asset{}}
	for _, b := range bundles {
		as, err := build(m, fsys, b)
		if err != nil {
			return nil, fmt.Errorf("bundle %s: %w", b.Name, err)
		}
		if _, dup := out.byName[as.Name]; dup {
			return nil, fmt.Errorf("bundle %s: %w", b.Name, fs.ErrExist)
		}
		out.byName[as.Name], out.byFile[as.File] = as, as
	}
	return out, nil
}

// separator goes between two sources: a script that ends without a
// semicolon must not run into the next one's opening parenthesis as a call.
var separator = map[string]string{".css": "\n", ".js": "\n;\n"}

func build(m *minify.M, fsys fs.FS, b Bundle) (*Asset, error) {
	ext := path.Ext(b.Name)
	mediaType, ok := map[string]string{".css": "text/css", ".js": "text/javascript"}[ext]
	if !ok {
		return nil, fmt.Errorf("unknown type %q", ext)
	}
	var src bytes.Buffer
	for _, name := range b.Sources {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("read: %w", err)
		}
		if src.Len() > 0 {
			src.WriteString(separator[ext])
		}
		src.Write(data)
	}
	body := src.Bytes()
	if b.Minify {
		var min bytes.Buffer
		if err := m.Minify(mediaType, &min, bytes.NewReader(body)); err != nil {
			return nil, fmt.Errorf("minify: %w", err)
		}
		body = min.Bytes()
	}
	sum := sha256.Sum256(body)
	as := &Asset{
		Name:        b.Name,
		File:        strings.TrimSuffix(b.Name, ext) + "." + hex.EncodeToString(sum[:])[:hashLen] + ext,
		ContentType: mediaType + "; charset=utf-8",
		Body:        body,
	}
	var err error
	if as.Gzip, err = gzipped(body); err != nil {
		return nil, err
	}
	if as.Brotli, err = brotlied(body); err != nil {
		return nil, err
	}
	return as, nil
}

func gzipped(body []byte) ([]byte, error) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	if _, err := zw.Write(body); err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	return buf.Bytes(), nil
}

func brotlied(body []byte) ([]byte, error) {
	var buf bytes.Buffer
	bw := brotli.NewWriterOptions(&buf, brotli.WriterOptions{Quality: brotliQuality, LGWin: brotliWindow})
	if _, err := bw.Write(body); err != nil {
		return nil, fmt.Errorf("brotli: %w", err)
	}
	if err := bw.Close(); err != nil {
		return nil, fmt.Errorf("brotli: %w", err)
	}
	return buf.Bytes(), nil
}
