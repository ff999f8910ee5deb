package oauth

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"syscall"
	"time"
)

// guardedTransport is a transport whose dialer refuses local addresses
// (see refuseLocal); the type marks a client as guarded already.
type guardedTransport struct{ *http.Transport }

// guardDial returns a copy of hc (nil means a default client) whose
// connections go only to addresses a remote server may send Switchboard
// to. The check runs on the address dialed, after DNS: a name in a
// server's metadata that resolves to 127.0.0.1 or 169.254.169.254 is
// refused like the literal address. resolver, when not nil, replaces the
// system's (tests). A transport that is not an *http.Transport cannot be
// given a dialer and is kept as it is.
func guardDial(hc *http.Client, resolver *net.Resolver) *http.Client {
	c := &http.Client{}
	if hc != nil {
		*c = *hc
	}
	var base *http.Transport
	switch t := c.Transport.(type) {
	case guardedTransport:
		return c
	case nil:
		base = http.DefaultTransport.(*http.Transport)
	case *http.Transport:
		base = t
	default:
		return c
	}
	tr := base.Clone()
	d := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second, Resolver: resolver, Control: refuseLocal}
	tr.DialContext = d.DialContext
	tr.DialTLSContext = nil // would bypass the dialer
	c.Transport = guardedTransport{tr}
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

// refuseLocal is a net.Dialer Control func: it refuses to connect to a
// loopback, link-local (unicast or multicast), interface-local multicast
// or unspecified address, whichever name led there.
func refuseLocal(_, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return fmt.Errorf("oauth: dialing %q: %w", address, err)
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return fmt.Errorf("oauth: dialing %q: %w", address, err)
	}
	ip = ip.Unmap().WithZone("")
	if ip.IsLoopback() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsInterfaceLocalMulticast() || ip.IsUnspecified() {
		return fmt.Errorf("%w: %s is a loopback, link-local or unspecified address", ErrInsecureURL, ip)
	}
	return nil
}
