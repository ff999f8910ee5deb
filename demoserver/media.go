package demoserver

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"image"
	"image/color"
	"image/png"
	"math"
)

// media holds the binary payloads the demo serves. They are generated at start
// rather than embedded so the repository carries no opaque blobs and the bytes
// are guaranteed to decode.
type media struct {
	png []byte
	wav []byte
}

// newMedia renders the logo and the tone once per server.
func newMedia() media {
	return media{png: renderLogo(), wav: renderTone()}
}

// pngBase64 returns the logo as the base64 text MCP carries binary data in.
func (m media) pngBase64() string { return base64.StdEncoding.EncodeToString(m.png) }

// wavBase64 returns the tone as the base64 text MCP carries binary data in.
func (m media) wavBase64() string { return base64.StdEncoding.EncodeToString(m.wav) }

// logoSize is the logo's width and height in pixels: big enough to see in a
// tooltip, small enough to keep list results short.
const logoSize = 16

// renderLogo draws a 16x16 switchboard: a diagonal blue-to-green gradient with
// a white cross, encoded as PNG.
func renderLogo() []byte {
	img := image.NewNRGBA(image.Rect(0, 0, logoSize, logoSize))
	for y := range logoSize {
		for x := range logoSize {
			c := color.NRGBA{R: 30, G: uint8(60 + 12*x), B: uint8(240 - 12*y), A: 255}
			if x == logoSize/2 || y == logoSize/2 {
				c = color.NRGBA{R: 255, G: 255, B: 255, A: 255}
			}
			img.SetNRGBA(x, y, c)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		// Encoding an in-memory NRGBA image into a bytes.Buffer cannot fail.
		panic("demoserver: encode logo: " + err.Error())
	}
	return buf.Bytes()
}

// Tone parameters: a quarter second of A4 at telephone quality keeps the WAV
// around 4 KB.
const (
	toneSampleRate = 8000
	toneHertz      = 440
	toneSamples    = toneSampleRate / 4
)

// renderTone synthesises a 16-bit mono PCM WAV of a sine tone with short fades
// so it does not click.
func renderTone() []byte {
	const bytesPerSample = 2
	dataLen := toneSamples * bytesPerSample
	var buf bytes.Buffer
	buf.Grow(44 + dataLen)
	le := binary.LittleEndian
	buf.WriteString("RIFF")
	buf.Write(le.AppendUint32(nil, uint32(36+dataLen)))
	buf.WriteString("WAVEfmt ")
	buf.Write(le.AppendUint32(nil, 16))                            // fmt chunk size
	buf.Write(le.AppendUint16(nil, 1))                             // PCM
	buf.Write(le.AppendUint16(nil, 1))                             // mono
	buf.Write(le.AppendUint32(nil, toneSampleRate))                // sample rate
	buf.Write(le.AppendUint32(nil, toneSampleRate*bytesPerSample)) // byte rate
	buf.Write(le.AppendUint16(nil, bytesPerSample))                // block align
	buf.Write(le.AppendUint16(nil, 8*bytesPerSample))              // bits per sample
	buf.WriteString("data")
	buf.Write(le.AppendUint32(nil, uint32(dataLen)))

	const fade = toneSamples / 10
	for i := range toneSamples {
		gain := 0.5
		if i < fade {
			gain *= float64(i) / fade
		} else if i > toneSamples-fade {
			gain *= float64(toneSamples-i) / fade
		}
		v := gain * math.Sin(2*math.Pi*toneHertz*float64(i)/toneSampleRate)
		buf.Write(le.AppendUint16(nil, uint16(int16(v*math.MaxInt16))))
	}
	return buf.Bytes()
}
