package handlers

import (
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"
)

// hostPolicy decides which Host values the server answers to. Checking
// Host defeats DNS rebinding: a page on evil.example that rebinds its
// name to 127.0.0.1 still sends "Host: evil.example".
type hostPolicy struct {
	allowed map[string]bool // lower-cased host or host:port
}

func newHostPolicy(hosts []string) hostPolicy {
	p := hostPolicy{allowed: make(map[string]bool, len(hosts))}
	for _, h := range hosts {
		p.allowed[strings.ToLower(h)] = true
	}
	return p
}

// framePolicy is the Content-Security-Policy of every response, with the
// pages that may frame the dashboard: none by default, so no other site
// can lay it under a decoy and borrow a click (clickjacking). A desktop
// host loads the page top-level, where frame-ancestors does not apply.
func framePolicy(ancestors []string) (csp, xfo string) {
	if len(ancestors) == 0 {
		return contentSecurityPolicy + "; frame-ancestors 'none'", "DENY"
	}
	// X-Frame-Options cannot name an origin, so only the CSP speaks then.
	return contentSecurityPolicy + "; frame-ancestors " + strings.Join(ancestors, " "), ""
}

// allows reports whether hostport names this server: one of the
// configured values exactly, or a loopback name with any port.
func (p hostPolicy) allows(hostport string) bool {
	hp := strings.ToLower(hostport)
	if hp == "" {
		return false
	}
	if p.allowed[hp] {
		return true
	}
	host, _, err := net.SplitHostPort(hp)
	if err != nil { // no port
		host = hp
	}
	return LoopbackHost(host)
}

// LoopbackHost reports whether host (a name or an IP, no port, brackets
// allowed) only ever reaches this machine: localhost or a loopback IP.
func LoopbackHost(host string) bool {
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// allowsOrigin reports whether a browser origin is this very server: the
// same host and port the request was sent to. Another local web server
// (say a dev server on localhost:3000) is a different origin and may not
// change anything here. The opaque origin "null" never matches.
func (p hostPolicy) allowsOrigin(origin, host string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
		return false // browsers send scheme://host[:port] and nothing else
	}
	// Switchboard serves plain HTTP; a TLS proxy in front makes it https.
	if u.Scheme != "http" && u.Scheme != "https" {
		return false
	}
	return strings.EqualFold(u.Host, host) && p.allows(u.Host)
}

// changesState reports whether a request with this method may change
// something, which is what a cross-site form or fetch must never do.
func changesState(method string) bool {
	switch method {
	case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
		return true
	}
	return false
}

// guard runs before routing, so unknown paths are guarded too. Requests
// without an Origin header come from non-browser clients, which cannot be
// tricked into sending them, and pass.
func guard(p hostPolicy, frameAncestors []string) echo.MiddlewareFunc {
	csp, xfo := framePolicy(frameAncestors)
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			h := c.Response().Header()
			h.Set("X-Content-Type-Options", "nosniff")
			h.Set("Referrer-Policy", "no-referrer")
			h.Set("Content-Security-Policy", csp)
			if xfo != "" {
				h.Set("X-Frame-Options", xfo)
			}
			req := c.Request()
			if !p.allows(req.Host) {
				return &apiError{http.StatusForbidden, "forbidden_host", "this host name is not allowed; use localhost or a configured address"}
			}
			if origin := req.Header.Get(echo.HeaderOrigin); origin != "" && changesState(req.Method) && !p.allowsOrigin(origin, req.Host) {
				return &apiError{http.StatusForbidden, "forbidden_origin", "cross-site requests may not change anything"}
			}
			// A browser that says the request comes from another site is
			// believed even when it sent no Origin.
			if changesState(req.Method) && req.Header.Get("Sec-Fetch-Site") == "cross-site" {
				return &apiError{http.StatusForbidden, "forbidden_origin", "cross-site requests may not change anything"}
			}
			return next(c)
		}
	}
}
