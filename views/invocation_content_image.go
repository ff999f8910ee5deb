package views

import (
	"encoding/base64"
	"encoding/binary"
	"image"
	_ "image/gif" // registers GIF for image.DecodeConfig
	_ "image/jpeg"
	_ "image/png"
	"io"
	"strings"
)

// MinImageSide is the least a card shows of an image's short side: a
// 16 × 16 icon drawn at its own size is a speck, so it is scaled up by a
// whole factor, and drawn with hard pixel edges (results.css).
const MinImageSide = 96

// maxScaledSide keeps an enlarged thin image from growing without end.
const maxScaledSide = 4096

// imageSize reads the width and height an image's header declares,
// without decoding its pixels. It reports false when the header cannot
// be read.
func imageSize(mime, data string) (w, h int, ok bool) {
	r := base64.NewDecoder(base64.StdEncoding, strings.NewReader(data))
	if mime == "image/webp" {
		return webpSize(r)
	}
	c, _, err := image.DecodeConfig(r)
	if err != nil || c.Width <= 0 || c.Height <= 0 {
		return 0, 0, false
	}
	return c.Width, c.Height, true
}

// webpSize reads a WebP file's canvas size from its first chunk, which is
// one of VP8X (extended), VP8L (lossless) or "VP8 " (lossy).
func webpSize(r io.Reader) (w, h int, ok bool) {
	var b [30]byte
	if _, err := io.ReadFull(r, b[:]); err != nil || string(b[0:4]) != "RIFF" || string(b[8:12]) != "WEBP" {
		return 0, 0, false
	}
	le24 := func(p []byte) int { return int(p[0]) | int(p[1])<<8 | int(p[2])<<16 }
	switch string(b[12:16]) {
	case "VP8X":
		w, h = le24(b[24:27])+1, le24(b[27:30])+1
	case "VP8L":
		if b[20] != 0x2f {
			return 0, 0, false
		}
		bits := binary.LittleEndian.Uint32(b[21:25])
		w, h = int(bits&0x3fff)+1, int(bits>>14&0x3fff)+1
	case "VP8 ":
		if b[23] != 0x9d || b[24] != 0x01 || b[25] != 0x2a {
			return 0, 0, false
		}
		w, h = int(binary.LittleEndian.Uint16(b[26:28])&0x3fff), int(binary.LittleEndian.Uint16(b[28:30])&0x3fff)
	default:
		return 0, 0, false
	}
	return w, h, w > 0 && h > 0
}

// imageScale is the whole factor that brings the short side of a w × h
// image to at least MinImageSide, held so that the long side stays within
// maxScaledSide; 1 leaves the image as it is.
func imageScale(w, h int) int {
	short, long := min(w, h), max(w, h)
	if short <= 0 || short >= MinImageSide {
		return 1
	}
	k := (MinImageSide + short - 1) / short
	return max(1, min(k, maxScaledSide/long))
}

// setImageSize records an image's real size and the size it is drawn at.
func (p *ContentItemProps) setImageSize(mime, data string) {
	w, h, ok := imageSize(mime, data)
	if !ok {
		return
	}
	k := imageScale(w, h)
	p.Width, p.Height = w, h
	p.ShowWidth, p.ShowHeight, p.Scaled = w*k, h*k, k > 1
}
