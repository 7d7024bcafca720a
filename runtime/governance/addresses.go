package governance

// Address rules: what a connection may not reach once its host is
// resolved. Ghostlight resolves a name once and checks every address it
// got (the policy proxy calls AdmitAddr), so a name that resolves into a
// denied range is denied whatever it is called; an IP address written in a
// URL is checked by AdmitHost, with no resolution to wait for.
//
// Two sources deny an address: every layer's hosts.addresses.deny (CIDRs,
// addresses, presets from spec/address_presets.cue), and every IP address
// in any layer's hosts.deny (so `deny: ["127.0.0.2"]` also stops a name
// that resolves to 127.0.0.2). `localhost` (or `*.localhost`) in hosts.deny
// is this machine's loopback, so it denies the loopback addresses too: the
// browser resolves localhost and every *.localhost name there without
// asking DNS (RFC 6761), and 127.1 or 0.0.0.0 reach the same sockets. One
// name under it (`app.localhost`) is a name only: other local apps stay. The unspecified addresses
// (0.0.0.0, ::) are checked as the loopback address a connection to them
// reaches. Allow lists name hosts, not addresses: an
// allowed name is not refused for the address it resolves to unless a
// denial covers that address.

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// parseAddressRule reads one hosts.addresses.deny entry: a preset's name,
// an IP address (any IPv6 spelling; an IPv4-mapped one is its IPv4
// address) or a CIDR naming its network.
func parseAddressRule(s string) ([]netip.Prefix, error) {
	for _, p := range surface.PolicyAddressPresets {
		if p.Name == s {
			out := make([]netip.Prefix, len(p.CIDRs))
			for i, c := range p.CIDRs {
				out[i] = netip.MustParsePrefix(c) // checked by the generator
			}
			return out, nil
		}
	}
	addr, bits, cidr := strings.Cut(s, "/")
	a, err := netip.ParseAddr(addr)
	if err != nil || a.Zone() != "" {
		return nil, fmt.Errorf("%q is not a preset (%s), an IP address or a CIDR", s, presetNames())
	}
	if !cidr {
		a = a.Unmap()
		return []netip.Prefix{netip.PrefixFrom(a, a.BitLen())}, nil
	}
	n, err := strconv.Atoi(bits)
	if err != nil || n < 0 || n > a.BitLen() {
		return nil, fmt.Errorf("%q: the prefix length must be 0 to %d", s, a.BitLen())
	}
	p := netip.PrefixFrom(a, n)
	if p.Masked() != p {
		return nil, fmt.Errorf("%q has bits set past its prefix; the network is %s", s, p.Masked())
	}
	if a.Is4In6() && n >= 96 { // ::ffff:10.0.0.0/104 is 10.0.0.0/8
		p = netip.PrefixFrom(a.Unmap(), n-96)
	}
	return []netip.Prefix{p}, nil
}

func presetNames() string {
	var n []string
	for _, p := range surface.PolicyAddressPresets {
		n = append(n, p.Name)
	}
	return strings.Join(n, ", ")
}

// AdmitAddr checks an address a host resolved to against every layer's
// address rules: its hosts.addresses.deny, and the IP addresses its
// hosts.deny names without a port (one with a port is checked by
// AdmitAddrPort, which knows the port). An IPv4-mapped IPv6 address is
// the IPv4 address it maps. The refusal's Host is the address's canonical
// host (IPv6 in brackets).
func (a *Authority) AdmitAddr(ip netip.Addr) *surface.Refusal {
	return a.admitAddr(ip, "")
}

// AdmitAddrPort is AdmitAddr for a connection to port, so hosts.deny
// entries naming an address with a port apply too.
func (a *Authority) AdmitAddrPort(ip netip.Addr, port uint16) *surface.Refusal {
	return a.admitAddr(ip, strconv.Itoa(int(port)))
}

func (a *Authority) admitAddr(ip netip.Addr, port string) *surface.Refusal {
	if !ip.IsValid() || ip.Zone() != "" {
		return &surface.Refusal{Reason: surface.ReasonHostDenied, Layer: surface.PolicyLayerCeiling, Message: "that is not an address a connection can reach"}
	}
	c := fromAddr(ip)
	if c.addr.IsUnspecified() {
		// 0.0.0.0 and :: are this machine's loopback to a connect (Linux,
		// macOS): checked as the address the connection reaches.
		c = fromAddr(loopbackOf(c.addr))
	}
	ip = c.addr
	deny := func(l Layer, why string) *surface.Refusal {
		return &surface.Refusal{Reason: surface.ReasonHostDenied, Host: c.name, Layer: l.Name, Message: "the " + l.Name + " layer denies " + c.name + " (" + why + ")"}
	}
layers:
	for _, l := range a.layers {
		lh := l.hosts()
		for _, n := range lh.nets {
			if n.n.Contains(ip) {
				if r := a.refuse(l, deny(l, "hosts.addresses: "+n.as)); r != nil {
					return r
				}
				continue layers
			}
		}
		for _, d := range lh.deny {
			if d.p == everyHost {
				if r := a.refuse(l, deny(l, "a host pattern it could not read")); r != nil {
					return r
				}
				continue layers
			}
			if d.p.port != "" && d.p.port != port {
				continue
			}
			local := d.p.kind == hostDomain && d.p.host == "localhost" // localhost, *.localhost
			if local && ip.IsLoopback() || !d.p.wild && d.p.kind != hostDomain && d.p.host == c.name {
				if r := a.refuse(l, deny(l, "hosts.deny: "+d.as)); r != nil {
					return r
				}
				continue layers
			}
		}
	}
	return nil
}

// loopbackOf is the address a connection to an unspecified address reaches.
func loopbackOf(a netip.Addr) netip.Addr {
	if a.Is4() {
		return netip.AddrFrom4([4]byte{127, 0, 0, 1})
	}
	return netip.IPv6Loopback()
}

// isLocalhost reports whether a canonical domain is localhost or a name
// under it, which resolve to loopback without DNS (RFC 6761).
func isLocalhost(name string) bool {
	return name == "localhost" || strings.HasSuffix(name, ".localhost")
}
