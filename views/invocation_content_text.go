package views

import (
	"net/url"
	"path"
	"regexp"
	"strconv"
	"strings"
)

// The names, sizes and measures a card shows of what a server sent: each
// one cut or cleaned so that no server can make a card large or break out
// of an attribute.

var mimeRE = regexp.MustCompile(`^[a-z0-9][a-z0-9.+-]*/[a-z0-9][a-z0-9.+-]*$`)

// safeMIME keeps a MIME type that cannot break out of a data: URI or a
// header, and is short enough to show.
func safeMIME(m string) string {
	m = strings.ToLower(strings.TrimSpace(strings.SplitN(m, ";", 2)[0]))
	if len(m) > maxShownMIME || !mimeRE.MatchString(m) {
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

// escapedLen is the length of s once escaped as HTML text, which is up
// to five times its own (a quote becomes &#34;).
func escapedLen(s string) int {
	n := len(s)
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '<', '>':
			n += 3
		case '&', '"', '\'':
			n += 4
		}
	}
	return n
}

// Caps of the names a server gives its items: a card shows at most this
// much of each, with an ellipsis, however long the server made them.
const (
	MaxShownURI  = 2048
	MaxShownName = 256
)

// shown is s cut to at most n bytes, with an ellipsis when it was cut.
func shown(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return cutUTF8(s, n) + jsonEllipsis
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
