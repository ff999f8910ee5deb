package oauth

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"syscall"
	"time"
)

// guardedTransport sends requests only to addresses a remote server may
// send Switchboard to; the type also marks a client as guarded already.
// Requests that go straight to their target use direct, whose dialer
// refuses local addresses after DNS (so a name that changes its answer
// between a check and the dial is still caught). Requests through a proxy
// use proxied, which may dial the proxy (often on loopback) and whose
// target host is resolved and checked before sending: the proxy does the
// final lookup, so a rebinding name is caught only as well as this check.
// A transport that is not an *http.Transport cannot be given a dialer and
// is wrapped as proxied with no direct.
type guardedTransport struct {
	direct   *http.Transport
	proxied  http.RoundTripper
	proxy    func(*http.Request) (*url.URL, error)
	resolver *net.Resolver
}

// RoundTrip sends req through direct, or checks its host and sends it
// through proxied when a proxy (or an unknown transport) carries it.
func (g *guardedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if g.direct != nil {
		var p *url.URL
		if g.proxy != nil {
			var err error
			if p, err = g.proxy(req); err != nil {
				closeBody(req)
				return nil, fmt.Errorf("oauth: choosing a proxy for %s: %w", req.URL.Host, err)
			}
		}
		if p == nil {
			return g.direct.RoundTrip(req)
		}
	}
	if err := checkHost(req.Context(), g.resolver, req.URL.Hostname()); err != nil {
		closeBody(req)
		return nil, err
	}
	return g.proxied.RoundTrip(req)
}

// closeBody keeps the RoundTripper contract: the body is closed even
// when the request is not sent.
func closeBody(req *http.Request) {
	if req.Body != nil {
		_ = req.Body.Close()
	}
}

// guardDial returns a copy of hc (nil means a default client) whose
// requests go only to addresses a remote server may send Switchboard to:
// a name in a server's metadata that resolves to 127.0.0.1 or
// 169.254.169.254 is refused like the literal address. resolver, when not
// nil, replaces the system's (tests).
func guardDial(hc *http.Client, resolver *net.Resolver) *http.Client {
	c := &http.Client{}
	if hc != nil {
		*c = *hc
	}
	var base *http.Transport
	switch t := c.Transport.(type) {
	case *guardedTransport:
		return c
	case nil:
		base = http.DefaultTransport.(*http.Transport)
	case *http.Transport:
		base = t
	default:
		c.Transport = &guardedTransport{proxied: t, resolver: resolver}
		return c
	}
	direct := base.Clone()
	d := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second, Resolver: resolver, Control: refuseLocal}
	direct.DialContext = d.DialContext
	direct.DialTLSContext = nil // would bypass the dialer
	direct.Proxy = nil          // requests with a proxy go through proxied
	g := &guardedTransport{direct: direct, proxy: base.Proxy, resolver: resolver}
	if base.Proxy != nil {
		proxied := base.Clone()
		pd := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second, Resolver: resolver}
		proxied.DialContext = pd.DialContext
		proxied.DialTLSContext = nil
		// Should the proxy function change its mind between RoundTrip's
		// call and the transport's, an unchecked direct dial is refused.
		pick := base.Proxy
		proxied.Proxy = func(r *http.Request) (*url.URL, error) {
			p, err := pick(r)
			if err == nil && p == nil {
				return nil, fmt.Errorf("%w: no proxy for %s", ErrLocalAddress, r.URL.Host)
			}
			return p, err
		}
		g.proxied = proxied
	}
	c.Transport = g
	return c
}

// httpClientFor is hc for requests on behalf of server: guarded unless the
// server itself is on this machine, whose metadata may rightly name
// loopback addresses (local servers, tests); checkFor applies the same
// rule to the addresses as written.
func httpClientFor(hc *http.Client, server *url.URL, resolver *net.Resolver) *http.Client {
	if isLoopback(server.Hostname()) {
		return hc
	}
	return guardDial(hc, resolver)
}

// checkHost refuses host if it is, or resolves (with resolver, nil
// meaning the system's) to, any local address: the check for requests
// whose connection Switchboard does not dial itself.
func checkHost(ctx context.Context, resolver *net.Resolver, host string) error {
	if ip, err := netip.ParseAddr(host); err == nil {
		return refuseAddr(ip)
	}
	if resolver == nil {
		resolver = net.DefaultResolver
	}
	ips, err := resolver.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return fmt.Errorf("oauth: resolving %s: %w", host, err)
	}
	for _, ip := range ips {
		if err := refuseAddr(ip); err != nil {
			return fmt.Errorf("%s: %w", host, err)
		}
	}
	return nil
}

// refuseLocal is a net.Dialer Control func: it refuses to connect to a
// local address (refuseAddr), whichever name led there.
func refuseLocal(_, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return fmt.Errorf("oauth: dialing %q: %w", address, err)
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return fmt.Errorf("oauth: dialing %q: %w", address, err)
	}
	return refuseAddr(ip)
}

// awsMetadataV6 is the IPv6 address of the EC2 instance metadata service.
// It is unique-local (fc00::/7), a range refused no further: private
// networks use it for servers a remote server may rightly name, while
// the metadata service hands out this machine's cloud credentials.
// (169.254.169.254, the IPv4 service of every major cloud, is link-local.)
var awsMetadataV6 = netip.MustParseAddr("fd00:ec2::254")

// refuseAddr refuses a loopback, link-local (unicast or multicast),
// interface-local multicast or unspecified address, and the known cloud
// metadata addresses.
func refuseAddr(ip netip.Addr) error {
	ip = ip.Unmap().WithZone("")
	if ip.IsLoopback() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsInterfaceLocalMulticast() || ip.IsUnspecified() || ip == awsMetadataV6 {
		return fmt.Errorf("%w: %s is a loopback, link-local, unspecified or cloud metadata address", ErrLocalAddress, ip)
	}
	return nil
}
