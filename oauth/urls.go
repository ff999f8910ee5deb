package oauth

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// checkURL parses u and allows only https, or http to a loopback host
// (local servers and tests): tokens and codes must not cross a network
// in clear text.
func checkURL(u string) (*url.URL, error) {
	p, err := url.Parse(u)
	if err != nil {
		return nil, fmt.Errorf("oauth: bad URL %q: %w", u, err)
	}
	switch strings.ToLower(p.Scheme) {
	case "https":
	case "http":
		if !isLoopback(p.Hostname()) {
			return nil, fmt.Errorf("%w: %s", ErrInsecureURL, u)
		}
	default:
		return nil, fmt.Errorf("%w: %s", ErrInsecureURL, u)
	}
	if p.Host == "" {
		return nil, fmt.Errorf("oauth: URL %q has no host", u)
	}
	return p, nil
}

// checkFor is checkURL for a URL a remote server named: besides the
// scheme rule, a server that is not on this machine may not send
// Switchboard to a loopback address (its own API, or other local
// services) to fetch metadata or tokens.
func checkFor(server *url.URL, u string) (*url.URL, error) {
	p, err := checkURL(u)
	if err != nil {
		return nil, err
	}
	if isLoopback(p.Hostname()) && !isLoopback(server.Hostname()) {
		return nil, fmt.Errorf("%w: %s names a loopback address", ErrInsecureURL, server.Host)
	}
	return p, nil
}

// isLoopback reports whether host names this machine: localhost and its
// subdomains (with or without the final dot, which resolvers accept), a
// loopback address, or the unspecified address (0.0.0.0 and :: reach
// local services on Linux).
func isLoopback(host string) bool {
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && (ip.IsLoopback() || ip.IsUnspecified())
}

// originOf is scheme://host[:port] in lower case, without a default port.
func originOf(u *url.URL) string {
	scheme := strings.ToLower(u.Scheme)
	host := strings.ToLower(u.Hostname())
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	port := u.Port()
	if (scheme == "https" && port == "443") || (scheme == "http" && port == "80") {
		port = ""
	}
	if port != "" {
		host += ":" + port
	}
	return scheme + "://" + host
}

// discoveryClient copies hc (nil means a default client) so that it
// follows redirects only within the same origin and never from https to
// http: metadata and endpoint URLs are chosen by a remote server, and a
// redirected token request would post its code, refresh token or secret
// on to wherever it pointed.
func discoveryClient(hc *http.Client) *http.Client {
	c := &http.Client{}
	if hc != nil {
		*c = *hc
	}
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) >= 5 {
			return errors.New("oauth: too many redirects")
		}
		if originOf(req.URL) != originOf(via[0].URL) {
			return fmt.Errorf("oauth: refusing a redirect from %s to another origin", originOf(via[0].URL))
		}
		return nil
	}
	return c
}
