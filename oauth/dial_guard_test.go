package oauth

import (
	"errors"
	"net/http"
	"net/url"
	"testing"
)

func TestRefuseLocalJudgesTheDialedAddress(t *testing.T) {
	cases := []struct {
		name    string
		address string
		refused bool
	}{
		{"ipv4-loopback", "127.0.0.1:443", true},
		{"ipv4-loopback-range", "127.8.9.10:80", true},
		{"ipv6-loopback", "[::1]:443", true},
		{"ipv4-mapped-loopback", "[::ffff:127.0.0.1]:443", true},
		{"cloud-metadata-link-local", "169.254.169.254:80", true},
		{"ipv6-link-local-with-zone", "[fe80::1%eth0]:443", true},
		{"ipv4-link-local-multicast", "224.0.0.251:5353", true},
		{"ipv6-link-local-multicast", "[ff02::fb]:5353", true},
		{"ipv6-interface-local-multicast", "[ff01::1]:443", true},
		{"ipv4-unspecified", "0.0.0.0:8080", true},
		{"aws-ipv6-metadata", "[fd00:ec2::254]:80", true},
		{"other-unique-local-is-a-private-network", "[fd00:ec2::253]:443", false},
		{"ipv6-unspecified", "[::]:8080", true},
		{"public-ipv4", "93.184.216.34:443", false},
		{"public-ipv6", "[2606:2800:220:1::1]:443", false},
		{"private-lan-is-not-this-machine", "192.168.1.10:443", false},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			err := refuseLocal("tcp", tt.address, nil)
			if got := err != nil; got != tt.refused {
				t.Fatalf("got %v, want refused=%v", err, tt.refused)
			}
			if tt.refused && !errors.Is(err, ErrLocalAddress) {
				t.Errorf("got %v, want it to wrap ErrLocalAddress", err)
			}
		})
	}
	if err := refuseLocal("tcp", "not-an-address", nil); err == nil {
		t.Error("an address without a port was let through")
	}
}

func TestHTTPClientForGuardsOnlyRemoteServers(t *testing.T) {
	hc := &http.Client{}
	local, _ := url.Parse("http://127.0.0.1:9000/mcp")
	if got := httpClientFor(hc, local, nil); got != hc {
		t.Error("a server on this machine got a guarded client; its metadata may name loopback addresses")
	}
	remote, _ := url.Parse("https://mcp.example.com/mcp")
	got := httpClientFor(hc, remote, nil)
	if _, ok := got.Transport.(*guardedTransport); !ok {
		t.Fatalf("a remote server's client has transport %T, want guarded", got.Transport)
	}
	if again := guardDial(got, nil); again.Transport != got.Transport {
		t.Error("guarding a guarded client made another transport")
	}
}
