package main

import (
	"fmt"
	"net"
	"net/url"
	"strings"

	"github.com/switchboard-mcp/switchboard/handlers"
)

// checkListenAddr refuses a listen address other machines can reach unless
// --allow-remote says so: whoever reaches the port and holds the token can
// start programs, and without TLS the token crosses the network in clear.
func checkListenAddr(addr string, allowRemote bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--addr %q: %w", addr, err)
	}
	if handlers.LoopbackHost(host) || allowRemote {
		return nil
	}
	return fmt.Errorf("--addr %s can be reached from other machines; pass --allow-remote if that is what you want "+
		"(anyone who reaches it still needs the access token, which travels in clear text without TLS)", addr)
}

// checkFrameAncestor accepts the origins CSP's frame-ancestors takes here:
// scheme://host[:port], or 'self'.
func checkFrameAncestor(o string) error {
	if o == "'self'" {
		return nil
	}
	u, err := url.Parse(o)
	if err != nil || u.Scheme == "" || u.Host == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.User != nil ||
		strings.ContainsAny(o, ";,' ") {
		return fmt.Errorf("--frame-ancestors %q: give origins such as https://app.example or tauri://localhost", o)
	}
	return nil
}

// hostNames are the Host values, beside loopback names, that the server
// answers to: the bound address, what --addr said, --allowed-hosts and,
// for an unspecified address (0.0.0.0, [::]), this machine's own IPs.
func hostNames(bound, requested string, extra []string) []string {
	names := append([]string{bound, requested}, extra...)
	host, port, err := net.SplitHostPort(bound)
	if err != nil {
		return names
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		addrs, _ := net.InterfaceAddrs()
		for _, a := range addrs {
			if n, ok := a.(*net.IPNet); ok {
				names = append(names, net.JoinHostPort(n.IP.String(), port))
			}
		}
	}
	return names
}

// browseURL is the address to print: an unspecified bind address is not
// one a browser can open, so loopback stands in for it.
func browseURL(bound string) string {
	host, port, err := net.SplitHostPort(bound)
	if err != nil {
		return "http://" + bound
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port)
}
