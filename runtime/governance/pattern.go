package governance

// The one host matcher: layer patterns are parsed by the canonical host
// parser (host.go), so a pattern and the host it is matched against are
// spelled the same way whatever either was written as.

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// hostPat is a parsed host pattern: an exact canonical host, or "*.suffix"
// (wild with host = a canonical domain; an empty suffix matches every
// host), with an optional canonical port.
type hostPat struct {
	host string
	kind hostKind
	wild bool
	port string
}

// parsePattern reads a layer's or a call's host pattern: "example.com",
// "*.example.com", either with ":port", an IP address in any spelling
// ("127.2", "::1", "[::1]", "[::1]:8080"). A wildcard applies to domain
// names only.
func parsePattern(p string) (hostPat, error) {
	s := strings.ToLower(p)
	var hp hostPat
	if rest, ok := strings.CutPrefix(s, "*."); ok {
		hp.wild, s = true, rest
	}
	if strings.ContainsAny(s, "@*") {
		return hostPat{}, fmt.Errorf("%q is not a host pattern: a host, *.domain, or either with :port", p)
	}
	h, port, err := splitHostPort(s)
	if err != nil {
		return hostPat{}, fmt.Errorf("%q is not a host pattern: %v", p, err)
	}
	c, err := canonicalHost(h)
	if err != nil {
		return hostPat{}, fmt.Errorf("%q is not a host pattern: %v", p, err)
	}
	if hp.wild && c.kind != hostDomain {
		return hostPat{}, fmt.Errorf("%q is not a host pattern: *. applies to domain names, and %s is an IP address", p, c.name)
	}
	hp.host, hp.kind, hp.port = c.name, c.kind, port
	return hp, nil
}

// String is the pattern's canonical spelling.
func (p hostPat) String() string {
	s := p.host
	if p.wild {
		s = "*." + s
	}
	if p.port != "" {
		s += ":" + p.port
	}
	return s
}

// CanonicalPattern is a host pattern's canonical spelling ("0x7f.1:08080"
// is "127.0.0.1:8080", "[0::1]" is "[::1]", "*.Bücher.example" is
// "*.xn--bcher-kva.example"), or why it is not a pattern.
func CanonicalPattern(p string) (string, error) {
	hp, err := parsePattern(p)
	if err != nil {
		return "", err
	}
	return hp.String(), nil
}

// CheckRestrictHosts refuses a call's restrict_hosts entry that is not a
// host pattern (its characters passed the decoder; its meaning did not):
// invalid_arguments at the entry's pointer, rule format.
func CheckRestrictHosts(hosts []string) *surface.Refusal {
	for i, h := range hosts {
		if _, err := parsePattern(h); err != nil {
			return &surface.Refusal{Reason: surface.ReasonInvalidArguments, Pointer: "/restrict_hosts/" + strconv.Itoa(i), Rule: surface.RuleFormat, Limit: "host_pattern", Message: err.Error()}
		}
	}
	return nil
}

// layerHosts is a layer's host and address rules, parsed once. A pattern
// or rule that does not parse (loading refuses such a layer; one built in
// code may hold one) fails closed: a denial that covers everything, an
// allowance that covers nothing.
type layerHosts struct {
	allow    []hostPat // nil with allowAll
	allowAll bool
	deny     []denyPat
	nets     []denyNet
}

type denyPat struct {
	p  hostPat
	as string // as written in the layer
}

type denyNet struct {
	n  netip.Prefix
	as string
}

var everyHost = hostPat{wild: true}

func compileHosts(l *Layer) *layerHosts {
	c := &layerHosts{allowAll: l.Hosts == nil}
	for _, h := range l.Hosts {
		if p, err := parsePattern(h); err == nil {
			c.allow = append(c.allow, p)
		}
	}
	for _, d := range l.DenyHosts {
		p, err := parsePattern(d)
		if err != nil {
			p = everyHost
		}
		c.deny = append(c.deny, denyPat{p, d})
	}
	for _, r := range l.DenyAddresses {
		nets, err := parseAddressRule(r)
		if err != nil {
			nets = []netip.Prefix{netip.MustParsePrefix("0.0.0.0/0"), netip.MustParsePrefix("::/0")}
		}
		for _, n := range nets {
			c.nets = append(c.nets, denyNet{n, r})
		}
	}
	return c
}

// hosts is the layer's parsed rules: compiled when the layer was built
// (load, Narrow, New), else now.
func (l Layer) hosts() *layerHosts {
	if l.compiled != nil {
		return l.compiled
	}
	return compileHosts(&l)
}

// matches reports whether pattern p admits canonical host h on port ("" when
// the URL names none, i.e. its scheme's default). A denial naming port 80 or
// 443 also matches a URL that names no port: the scheme is not known here,
// and denying both defaults is the safe reading.
func (p hostPat) matches(h chost, port string, deny bool) bool {
	if p.port != "" && p.port != port && !(deny && port == "" && (p.port == "80" || p.port == "443")) {
		return false
	}
	return p.covers(h.name)
}

// covers reports whether canonical host h lies within the pattern's hosts.
func (p hostPat) covers(h string) bool {
	if !p.wild {
		return h == p.host
	}
	return p.host == "" || strings.HasSuffix(h, "."+p.host)
}

// hostWithin reports whether every host:port pattern a matches, b matches
// too.
func hostWithin(a, b string) bool {
	ap, aerr := parsePattern(a)
	bp, berr := parsePattern(b)
	if aerr != nil || berr != nil {
		return false
	}
	if bp.port != "" && ap.port != bp.port {
		return false
	}
	if !bp.wild {
		return !ap.wild && ap.host == bp.host
	}
	if ap.wild {
		return bp.host == "" || ap.host == bp.host || strings.HasSuffix(ap.host, "."+bp.host)
	}
	return bp.covers(ap.host)
}

// intersect is the pattern of the hosts both admit.
func (p hostPat) intersect(q hostPat) (hostPat, bool) {
	port := p.port
	switch {
	case p.port != "" && q.port != "" && p.port != q.port:
		return hostPat{}, false
	case port == "":
		port = q.port
	}
	var out hostPat
	switch {
	case !p.wild && !q.wild:
		if p.host != q.host {
			return hostPat{}, false
		}
		out = p
	case !p.wild:
		if !q.covers(p.host) {
			return hostPat{}, false
		}
		out = p
	case !q.wild:
		if !p.covers(q.host) {
			return hostPat{}, false
		}
		out = q
	case p.covers(q.host) || p.host == q.host:
		out = q
	case q.covers(p.host):
		out = p
	default:
		return hostPat{}, false
	}
	out.port = port
	return out, true
}
