package governance

// The one canonical host. Every host the policy meets (a navigation's URL,
// a request the browser holds, a layer's pattern, a call's restrict_hosts)
// goes through canonicalHost, which follows the WHATWG URL host parser, as
// Chromium does: what Ghostlight checks is what Chromium connects to.
//
// Canonical forms: an IPv4 address as a dotted quad ("127.0.0.2", whatever
// the spelling: 2130706434, 0x7f.0.0.2, 0177.0.0.2, 127.2); an IPv6
// address in brackets, compressed and lower-case ("[::1]"), an IPv4-mapped
// one (::ffff:127.0.0.2, ::ffff:7f00:2) as the IPv4 address it maps; a
// domain lower-case, in ASCII (IDNA), without its trailing dot.

import (
	"errors"
	"fmt"
	"math/bits"
	"net/netip"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// hostKind is what a canonical host is.
type hostKind uint8

const (
	hostDomain hostKind = iota
	hostIPv4
	hostIPv6
)

// chost is a canonical host.
type chost struct {
	kind hostKind
	name string     // the canonical spelling (IPv6 in brackets)
	addr netip.Addr // the address, for IPv4 and IPv6
}

// whatwgIDNA is UTS #46 as the URL standard's "domain to ASCII" asks
// (CheckHyphens false, CheckBidi and CheckJoiners true, UseSTD3ASCIIRules
// false, non-transitional, VerifyDnsLength false).
var whatwgIDNA = idna.New(idna.MapForLookup(), idna.BidiRule(), idna.Transitional(false),
	idna.CheckHyphens(false), idna.StrictDomainName(false), idna.VerifyDNSLength(false))

// CanonicalHost turns a host ("Example.COM.", "2130706434", "[::ffff:7f00:2]",
// "::1"), a host:port, or either with userinfo ("user:pw@host:port") into
// its canonical host, without the port. It errs on anything the URL
// standard's host parser refuses, and on a port that is not one.
func CanonicalHost(s string) (string, error) {
	h, _, err := splitHostPort(s)
	if err != nil {
		return "", err
	}
	c, err := canonicalHost(h)
	if err != nil {
		return "", err
	}
	return c.name, nil
}

// CanonicalHostPort is CanonicalHost with the port kept when one is named
// ("[::ffff:7f00:2]:8080" is "127.0.0.2:8080"): how a result names a host a
// request went to. A host that does not parse is returned as given.
func CanonicalHostPort(s string) string {
	h, port, err := splitHostPort(s)
	if err != nil {
		return s
	}
	c, err := canonicalHost(h)
	if err != nil {
		return s
	}
	if port != "" {
		return c.name + ":" + port
	}
	return c.name
}

// splitHostPort splits an authority into its host and its canonical port
// ("" when it names none), dropping userinfo. A host of two colons or more
// without brackets is an IPv6 address, which takes no port.
func splitHostPort(s string) (host, port string, err error) {
	if i := strings.LastIndexByte(s, '@'); i >= 0 {
		s = s[i+1:]
	}
	rest := ""
	switch {
	case strings.HasPrefix(s, "["):
		j := strings.IndexByte(s, ']')
		if j < 0 {
			return "", "", fmt.Errorf("%q has no closing ]", s)
		}
		host, rest = s[:j+1], s[j+1:]
		if rest != "" && rest[0] != ':' {
			return "", "", fmt.Errorf("%q has text after the ]", s)
		}
	case strings.Count(s, ":") >= 2:
		host = "[" + s + "]"
	default:
		host = s
		if i := strings.IndexByte(s, ':'); i >= 0 {
			host, rest = s[:i], s[i:]
		}
	}
	if rest != "" {
		port, err = canonicalPort(rest[1:])
	}
	return host, port, err
}

// canonicalPort is a port without leading zeros ("" for none given).
func canonicalPort(p string) (string, error) {
	if p == "" {
		return "", nil
	}
	n := 0
	for i := 0; i < len(p); i++ {
		if p[i] < '0' || p[i] > '9' {
			return "", fmt.Errorf("port %q is not a number", p)
		}
		if n = n*10 + int(p[i]-'0'); n > 65535 {
			return "", fmt.Errorf("port %q is above 65535", p)
		}
	}
	return strconv.Itoa(n), nil
}

// canonicalHost parses a host as the URL standard's host parser does for
// special schemes (http, https, ws, wss), then drops a domain's trailing
// dot.
func canonicalHost(h string) (chost, error) {
	if h == "" {
		return chost{}, errors.New("the host is empty")
	}
	if strings.HasPrefix(h, "[") {
		if !strings.HasSuffix(h, "]") {
			return chost{}, fmt.Errorf("%q has no closing ]", h)
		}
		a, err := netip.ParseAddr(h[1 : len(h)-1])
		if err != nil || !a.Is6() || a.Zone() != "" {
			return chost{}, fmt.Errorf("%q is not an IPv6 address", h)
		}
		return fromAddr(a), nil
	}
	domain, err := percentDecode(h)
	if err != nil {
		return chost{}, err
	}
	if !utf8.ValidString(domain) {
		return chost{}, fmt.Errorf("%q is not UTF-8", h)
	}
	ascii, err := whatwgIDNA.ToASCII(domain)
	if err != nil {
		return chost{}, fmt.Errorf("%q is not a valid domain: %v", h, err)
	}
	// The ASCII form must read as itself: a label IDNA let through but
	// would refuse as punycode is no host (the form is then idempotent).
	if again, err := whatwgIDNA.ToASCII(ascii); err != nil || again != ascii {
		return chost{}, fmt.Errorf("%q is not a valid domain", h)
	}
	ascii = strings.ToLower(ascii)
	for i := 0; i < len(ascii); i++ {
		if forbiddenDomain(ascii[i]) {
			return chost{}, fmt.Errorf("%q holds a character no host may (%q)", h, ascii[i])
		}
	}
	if endsInNumber(ascii) {
		v4, err := parseIPv4(ascii)
		if err != nil {
			return chost{}, fmt.Errorf("%q ends in a number but is not an IPv4 address: %v", h, err)
		}
		return fromAddr(v4), nil
	}
	name := strings.TrimSuffix(ascii, ".")
	if name == "" || strings.HasPrefix(name, ".") || strings.HasSuffix(name, ".") || strings.Contains(name, "..") {
		return chost{}, fmt.Errorf("%q has an empty label", h)
	}
	return chost{kind: hostDomain, name: name}, nil
}

// fromAddr is the canonical host of an address; an IPv4-mapped IPv6
// address is the IPv4 address it maps (Chromium connects to that one).
func fromAddr(a netip.Addr) chost {
	a = a.Unmap()
	if a.Is4() {
		return chost{kind: hostIPv4, name: a.String(), addr: a}
	}
	return chost{kind: hostIPv6, name: "[" + a.String() + "]", addr: a}
}

// forbiddenDomain: the URL standard's forbidden domain code points (ASCII).
func forbiddenDomain(c byte) bool {
	return c <= 0x20 || c == 0x7f || strings.IndexByte("#%/:<>?@[\\]^|", c) >= 0
}

// percentDecode decodes %XX sequences (a URL's host is percent-decoded
// before IDNA); the result must be UTF-8.
func percentDecode(s string) (string, error) {
	if !strings.Contains(s, "%") {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			v, _ := strconv.ParseUint(s[i+1:i+3], 16, 8)
			b.WriteByte(byte(v))
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String(), nil
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// endsInNumber is the URL standard's "ends in a number" checker: the last
// label (after one trailing dot) is digits, or parses as an IPv4 number
// (0x…).
func endsInNumber(s string) bool {
	parts := strings.Split(s, ".")
	if parts[len(parts)-1] == "" {
		if len(parts) == 1 {
			return false
		}
		parts = parts[:len(parts)-1]
	}
	last := parts[len(parts)-1]
	if last != "" && strings.Trim(last, "0123456789") == "" {
		return true
	}
	_, err := ipv4Number(last)
	return err == nil
}

// parseIPv4 is the URL standard's IPv4 parser: one to four parts, each
// decimal, octal (leading 0) or hex (0x); the last fills the bytes left.
func parseIPv4(s string) (netip.Addr, error) {
	parts := strings.Split(s, ".")
	if parts[len(parts)-1] == "" && len(parts) > 1 {
		parts = parts[:len(parts)-1]
	}
	if len(parts) > 4 {
		return netip.Addr{}, errors.New("more than four parts")
	}
	nums := make([]uint64, len(parts))
	for i, p := range parts {
		n, err := ipv4Number(p)
		if err != nil {
			return netip.Addr{}, err
		}
		nums[i] = n
	}
	for _, n := range nums[:len(nums)-1] {
		if n > 255 {
			return netip.Addr{}, errors.New("a part above 255")
		}
	}
	last := nums[len(nums)-1]
	if last >= 1<<(8*(5-len(nums))) {
		return netip.Addr{}, errors.New("the last part is too large")
	}
	v := uint32(last)
	for i, n := range nums[:len(nums)-1] {
		v += uint32(n) << (8 * (3 - i))
	}
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), nil
}

// ipv4Number parses one IPv4 part: 0x… hex, 0… octal, else decimal; "0x"
// alone is 0. A value past 64 bits saturates (it is out of range anyway).
func ipv4Number(s string) (uint64, error) {
	if s == "" {
		return 0, errors.New("an empty part")
	}
	radix := uint64(10)
	switch {
	case len(s) >= 2 && (s[:2] == "0x" || s[:2] == "0X"):
		s, radix = s[2:], 16
	case len(s) >= 2 && s[0] == '0':
		s, radix = s[1:], 8
	}
	var v uint64
	for i := 0; i < len(s); i++ {
		c := s[i]
		var d uint64
		switch {
		case c >= '0' && c <= '9':
			d = uint64(c - '0')
		case c >= 'a' && c <= 'f':
			d = uint64(c-'a') + 10
		case c >= 'A' && c <= 'F':
			d = uint64(c-'A') + 10
		default:
			return 0, fmt.Errorf("%q is not a number", s)
		}
		if d >= radix {
			return 0, fmt.Errorf("%q is not a base-%d number", s, radix)
		}
		hi, lo := bits.Mul64(v, radix)
		if hi != 0 || lo+d < lo {
			v = ^uint64(0)
			continue
		}
		v = lo + d
	}
	return v, nil
}

// urlAuthority is a URL's scheme (lower-case) and authority (host[:port],
// userinfo dropped) as the URL standard reads a web scheme's: leading and
// trailing spaces and controls trimmed, tabs and newlines removed, the
// authority ending at the first /, \, ? or #. Where Chromium would skip
// missing or extra slashes ("http:host", "https:///host", "http:\\host")
// the authority is "": such a URL is refused, not guessed at.
func urlAuthority(raw string) (scheme, authority string) {
	raw = strings.TrimFunc(raw, func(r rune) bool { return r <= 0x20 })
	raw = strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(raw)
	i := strings.IndexByte(raw, ':')
	if i <= 0 {
		return "", ""
	}
	scheme = strings.ToLower(raw[:i])
	switch scheme {
	case "http", "https", "ws", "wss":
	default:
		return scheme, ""
	}
	rest, ok := strings.CutPrefix(raw[i+1:], "//")
	if !ok || rest == "" || rest[0] == '/' || rest[0] == '\\' {
		return scheme, ""
	}
	if j := strings.IndexAny(rest, "/\\?#"); j >= 0 {
		rest = rest[:j]
	}
	if k := strings.LastIndexByte(rest, '@'); k >= 0 {
		rest = rest[k+1:]
	}
	return scheme, rest
}
