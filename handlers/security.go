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
		host = strings.TrimSuffix(strings.TrimPrefix(hp, "["), "]")
	}
	if host == "localhost" {
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
	if err != nil || u.Host == "" {
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
func guard(p hostPolicy) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			h := c.Response().Header()
			h.Set("X-Content-Type-Options", "nosniff")
			h.Set("Referrer-Policy", "no-referrer")
			req := c.Request()
			if !p.allows(req.Host) {
				return &apiError{http.StatusForbidden, "forbidden_host", "this host name is not allowed; use localhost or a configured address"}
			}
			if origin := req.Header.Get(echo.HeaderOrigin); origin != "" && changesState(req.Method) && !p.allowsOrigin(origin, req.Host) {
				return &apiError{http.StatusForbidden, "forbidden_origin", "cross-site requests may not change anything"}
			}
			return next(c)
		}
	}
}
