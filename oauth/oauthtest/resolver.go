package oauthtest

import (
	"context"
	"encoding/binary"
	"io"
	"net"
	"net/netip"
	"strings"
)

// Resolver returns a resolver that answers A queries from hosts (name →
// IPv4 address) and nothing else, without a network: tests give a name to
// a local address the way a hostile DNS record would, which the literal
// checks on a URL cannot see.
func Resolver(hosts map[string]string) *net.Resolver {
	return &net.Resolver{
		PreferGo: true,
		Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
			client, server := net.Pipe()
			go answerDNS(server, hosts)
			return client, nil
		},
	}
}

// answerDNS serves DNS over a stream (2-byte length, then the message)
// until the client hangs up: the Go resolver speaks it to a Conn that is
// not a PacketConn.
func answerDNS(c net.Conn, hosts map[string]string) {
	defer c.Close()
	for {
		var n uint16
		if err := binary.Read(c, binary.BigEndian, &n); err != nil {
			return
		}
		q := make([]byte, n)
		if _, err := io.ReadFull(c, q); err != nil {
			return
		}
		resp := dnsAnswer(q, hosts)
		if resp == nil {
			return
		}
		out := binary.BigEndian.AppendUint16(nil, uint16(len(resp)))
		if _, err := c.Write(append(out, resp...)); err != nil {
			return
		}
	}
}

// dnsAnswer builds the answer to query q: one A record when it asks for
// the address of a name in hosts, else no records (NXDOMAIN for unknown
// names). It returns nil for a query it cannot read.
func dnsAnswer(q []byte, hosts map[string]string) []byte {
	if len(q) < 12 || binary.BigEndian.Uint16(q[4:6]) != 1 {
		return nil
	}
	var labels []string
	i := 12
	for i < len(q) && q[i] != 0 {
		l := int(q[i])
		if i+1+l > len(q) {
			return nil
		}
		labels = append(labels, string(q[i+1:i+1+l]))
		i += 1 + l
	}
	if i+5 > len(q) {
		return nil
	}
	question := q[12 : i+5]
	qtype := binary.BigEndian.Uint16(q[i+1 : i+3])
	name := strings.ToLower(strings.Join(labels, "."))
	addr, known := hosts[name]
	ip, err := netip.ParseAddr(addr)
	answer := known && err == nil && ip.Is4() && qtype == 1

	resp := make([]byte, 12, 12+len(question)+16)
	copy(resp[0:2], q[0:2])
	flags := uint16(0x8180) // a response, recursion desired and available
	if !known {
		flags |= 3 // NXDOMAIN
	}
	binary.BigEndian.PutUint16(resp[2:4], flags)
	binary.BigEndian.PutUint16(resp[4:6], 1)
	if answer {
		binary.BigEndian.PutUint16(resp[6:8], 1)
	}
	resp = append(resp, question...)
	if answer {
		a4 := ip.As4()
		resp = append(resp, 0xc0, 12, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4)
		resp = append(resp, a4[:]...)
	}
	return resp
}
