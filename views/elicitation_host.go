package views

import (
	"net/url"
	"strings"

	"golang.org/x/net/idna"
)

// elicitHost is the host of a URL-mode question's address as the person
// is shown it: in Unicode, and, when the browser goes to it spelled
// otherwise, in the ASCII (punycode) form the browser uses, so that a
// name in other scripts that looks like another site's is seen for what
// it is. A host that is no valid internationalized name is shown as
// sent, and flagged: a browser may refuse to open it. The mapping is
// UTS #46's lookup profile, the one browsers apply to a URL's host.
func elicitHost(u *url.URL) (host, ascii string, invalid bool) {
	name, port := u.Hostname(), u.Port()
	if !needsIDNA(name) {
		return u.Host, "", false
	}
	withPort := func(h string) string {
		if port == "" {
			return h
		}
		return h + ":" + port
	}
	a, err := idna.Lookup.ToASCII(name)
	if err != nil {
		return u.Host, "", true
	}
	uni, err := idna.Lookup.ToUnicode(a)
	if err != nil {
		uni = name
	}
	if uni == a {
		return withPort(a), "", false
	}
	return withPort(uni), withPort(a), false
}

// needsIDNA reports whether name is spelled in other scripts, or holds a
// label already in punycode (xn--), whose Unicode form is what it looks
// like to a person.
func needsIDNA(name string) bool {
	if strings.ContainsFunc(name, func(r rune) bool { return r > 0x7e }) {
		return true
	}
	for label := range strings.SplitSeq(strings.ToLower(name), ".") {
		if strings.HasPrefix(label, "xn--") {
			return true
		}
	}
	return false
}
