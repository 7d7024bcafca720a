package governance

import (
	"fmt"
	"net/netip"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// TestCanonicalHost: every spelling of a host comes to one canonical host,
// as the URL standard's host parser (and Chromium) reads it.
func TestCanonicalHost(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		// IPv4, every spelling of 127.0.0.2.
		{"127.0.0.2", "127.0.0.2"},
		{"2130706434", "127.0.0.2"},
		{"0177.0.0.2", "127.0.0.2"},
		{"0x7f.0.0.2", "127.0.0.2"},
		{"0X7F.0.0.02", "127.0.0.2"},
		{"0x7f000002", "127.0.0.2"},
		{"017700000002", "127.0.0.2"},
		{"127.2", "127.0.0.2"},
		{"127.0.2", "127.0.0.2"},
		{"0x7f.2", "127.0.0.2"},
		{"0177.0x0.2", "127.0.0.2"},
		{"127.0.0.2.", "127.0.0.2"},
		{"127.0.0.0x2", "127.0.0.2"},
		{"0x", "0.0.0.0"},
		{"127.0.0.%32", "127.0.0.2"},
		{"４２.１.２.３", "42.1.2.3"}, // full-width digits map to ASCII first
		// IPv6.
		{"[::1]", "[::1]"},
		{"::1", "[::1]"},
		{"[0:0:0:0:0:0:0:1]", "[::1]"},
		{"[0000:0000::0001]", "[::1]"},
		{"[::1]:8080", "[::1]"},
		{"[2001:DB8::A]", "[2001:db8::a]"},
		{"[2001:db8:0:0:1:0:0:1]", "[2001:db8::1:0:0:1]"},
		// IPv4-mapped IPv6 is the IPv4 address it maps.
		{"[::ffff:127.0.0.2]", "127.0.0.2"},
		{"[::ffff:7f00:2]", "127.0.0.2"},
		{"[::FFFF:7F00:0002]", "127.0.0.2"},
		{"[0:0:0:0:0:ffff:7f00:2]:80", "127.0.0.2"},
		{"::ffff:127.0.0.2", "127.0.0.2"},
		{"[::127.0.0.2]", "[::7f00:2]"}, // IPv4-compatible is not mapped: another address
		// Domains: case, trailing dot, IDN, userinfo, port.
		{"Example.COM", "example.com"},
		{"example.com.", "example.com"},
		{"localhost.", "localhost"},
		{"LOCALHOST.:8080", "localhost"},
		{"bücher.example", "xn--bcher-kva.example"},
		{"BÜCHER.example", "xn--bcher-kva.example"},
		{"xn--bcher-kva.example", "xn--bcher-kva.example"},
		{"faß.de", "xn--fa-hia.de"}, // non-transitional, as the URL standard
		{"ｅｘａｍｐｌｅ．com", "example.com"},
		{"user:pw@example.com:8080", "example.com"},
		{"a@b@Example.com", "example.com"},
		{"user@[::ffff:7f00:2]:1", "127.0.0.2"},
		{"under_score.example", "under_score.example"},
		{"r3---sn-apo3qvuoxuxbt-j5pe.example", "r3---sn-apo3qvuoxuxbt-j5pe.example"},
		{"1.2.3.example", "1.2.3.example"},
		{"0x7f.example", "0x7f.example"},
	} {
		got, err := CanonicalHost(c.in)
		if err != nil || got != c.want {
			t.Errorf("CanonicalHost(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
		if again, err := CanonicalHost(got); err != nil || again != got {
			t.Errorf("CanonicalHost(%q) = %q, %v: not idempotent", got, again, err)
		}
	}
	for _, in := range []string{
		"", "[", "[::1", "[::1]x", "[::1]:x", "[1.2.3.4]", "[::1%eth0]", "[fe80::1%25eth0]", "[:::1]", "[1::2::3]",
		"256.0.0.1", "1.2.3.4.5", "4294967296", "0x100000000", "1.256.1.1", "1.2.65536", "09.1.1.1", "0x7g.1.1.1",
		"1..2.3", ".1.2.3", "example.0x", "example.1",
		"a b.example", "a%20b.example", "exa<mple.com", "ex^ample.com", "ex|ample.com", "ex%ample.com", "a#b", "a/b", "a?b",
		"..", ".", "a..b.example", ".example.com", "example.com..",
		"xn--a.example", "a\u200db.example", // bad punycode; a joiner out of context
		"example.com:65536", "example.com:-1", "example.com:8o",
	} {
		if got, err := CanonicalHost(in); err == nil {
			t.Errorf("CanonicalHost(%q) = %q, want an error", in, got)
		}
	}
}

// TestPatternsAndMatching: a layer's patterns, written in any spelling,
// match a host in any spelling, through the one matcher.
func TestPatternsAndMatching(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"::1", "[::1]"}, {"[::1]", "[::1]"}, {"[::1]:8080", "[::1]:8080"}, {"[0::1]:08080", "[::1]:8080"},
		{"*.Example.com", "*.example.com"}, {"example.com:8080", "example.com:8080"}, {"2130706434", "127.0.0.2"},
		{"0x7f.1:80", "127.0.0.1:80"}, {"[::ffff:7f00:2]", "127.0.0.2"}, {"*.bücher.example", "*.xn--bcher-kva.example"},
		{"localhost:0", "localhost:0"},
	} {
		if got, err := CanonicalPattern(c.in); err != nil || got != c.want {
			t.Errorf("CanonicalPattern(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	for _, in := range []string{"*.127.0.0.1", "*.[::1]", "*.*.example.com", "[zz]", "[::1", "user@example.com", "example.com:99999", "*.", "a b", "1.2.3.4.5"} {
		if got, err := CanonicalPattern(in); err == nil {
			t.Errorf("CanonicalPattern(%q) = %q, want an error", in, got)
		}
	}

	deny := func(p ...string) *Authority {
		return New("auto", "org", Layer{Name: "organization", Caps: AllCaps, DenyHosts: p})
	}
	allow := func(p ...string) *Authority { return New("auto", "org", Layer{Name: "user", Caps: AllCaps, Hosts: p}) }
	cases := []struct {
		a       *Authority
		host    string
		refused bool
		shown   string
	}{
		{deny("127.0.0.2"), "127.0.0.2:8080", true, "127.0.0.2"},
		{deny("127.0.0.2"), "2130706434:8080", true, "127.0.0.2"},
		{deny("127.0.0.2"), "0x7f.0.0.2", true, "127.0.0.2"},
		{deny("127.0.0.2"), "0177.0.0.2", true, "127.0.0.2"},
		{deny("127.0.0.2"), "127.0.2", true, "127.0.0.2"},
		{deny("127.0.0.2"), "[::ffff:127.0.0.2]:80", true, "127.0.0.2"},
		{deny("127.0.0.2"), "[::ffff:7f00:2]", true, "127.0.0.2"},
		{deny("127.0.0.2"), "127.0.0.1", false, ""},
		{deny("127.0.0.2"), "[::7f00:2]", false, ""},
		{deny("::1"), "[::1]:8080", true, "[::1]"},
		{deny("[::1]"), "[0:0::1]", true, "[::1]"},
		{deny("[::1]:8080"), "[::1]:8080", true, "[::1]"},
		{deny("[::1]:8080"), "[::1]:9090", false, ""},
		{deny("localhost"), "localhost.:8080", true, "localhost"},
		{deny("localhost"), "LocalHost.", true, "localhost"},
		{deny("*.example.com"), "A.Example.COM.", true, "a.example.com"},
		{deny("*.example.com"), "example.com", false, ""},
		{deny("*.example.com"), "badexample.com", false, ""},
		{deny("*.xn--bcher-kva.example"), "www.bücher.example", true, "www.xn--bcher-kva.example"},
		{deny("example.com:80"), "example.com", true, "example.com"}, // a denial naming a default port holds for the portless URL
		{deny("example.com:80"), "example.com:81", false, ""},
		{deny("example.com"), "user:pw@example.com:1", true, "example.com"},
		{deny("127.0.0.2"), "[zz]", true, "[zz]"},                     // not a host: the ceiling refuses it
		{allow("example.com:80"), "example.com", true, "example.com"}, // an allowance is not widened that way
		{allow("::1"), "[::1]:3000", false, ""},
		{allow("127.0.0.1:8080"), "2130706433:8080", false, ""},
		{allow("127.0.0.1:8080"), "[::ffff:127.0.0.1]:8080", false, ""},
		{allow("127.0.0.1:8080"), "127.0.0.1:08080", false, ""},
		{allow("*.example.com"), "x.example.com.", false, ""},
		{allow("*.example.com"), "x.example.com.evil.test", true, "x.example.com.evil.test"},
	}
	for _, c := range cases {
		r := c.a.AdmitHost(c.host)
		if (r != nil) != c.refused {
			t.Errorf("%v %v: AdmitHost(%q) = %+v", c.a.layers[1].DenyHosts, c.a.layers[1].Hosts, c.host, r)
			continue
		}
		if r != nil && r.Host != c.shown {
			t.Errorf("AdmitHost(%q) names %q, want %q", c.host, r.Host, c.shown)
		}
	}
	if r := deny("127.0.0.2").AdmitHost("[zz]"); r == nil || r.Layer != surface.PolicyLayerCeiling {
		t.Errorf("an unreadable host: %+v", r)
	}
}

// TestAdmitURLReadsAsChromium: the URL's host is read as Chromium reads it
// (backslashes, userinfo, missing slashes), not as Go's url.Parse would.
func TestAdmitURLReadsAsChromium(t *testing.T) {
	a := New("auto", "org", Layer{Name: "organization", Caps: AllCaps, DenyHosts: []string{"127.0.0.2", "evil.test"}})
	for _, u := range []string{
		"http://2130706434:8080/", "http://[::ffff:127.0.0.2]:8080/", "http://[::ffff:7f00:2]/", "HTTP://0x7f.0.0.2/",
		"http://127.0.0.%32/", "http:\\\\evil.test\\x", "http:evil.test/", "http://good.test@evil.test/", "http://evil.test\\@good.test/",
		" http://evil.test./", "http://ev\til.test/", "http://127.2/#x", "http://evil.test?x",
	} {
		if r := a.AdmitURL(u); r == nil || r.Reason != surface.ReasonHostDenied {
			t.Errorf("AdmitURL(%q) = %+v, want refused", u, r)
		}
	}
	for _, u := range []string{"http://127.0.0.1:8080/", "https://good.test/a@evil.test", "http://good.test/?h=evil.test"} {
		if r := a.AdmitURL(u); r != nil {
			t.Errorf("AdmitURL(%q) = %+v, want admitted", u, r)
		}
	}
	if r := a.AdmitURL("file:///etc/passwd"); r == nil || r.Layer != surface.PolicyLayerCeiling || r.Host != "file:" {
		t.Errorf("file: %+v", r)
	}
}

// TestAdmitAddr: address rules (presets, CIDRs, addresses) and the IP
// addresses of hosts.deny hold for an address a name resolved to.
func TestAdmitAddr(t *testing.T) {
	a := New("auto", "org",
		Layer{Name: "organization", Caps: AllCaps, DenyAddresses: []string{"private", "metadata", "198.51.100.0/24", "2001:db8::/32", "::ffff:203.0.113.0/120"}},
		Layer{Name: "user", Caps: AllCaps, DenyHosts: []string{"127.0.0.2", "[::2]", "127.0.0.3:8080", "*.example.com", "example.org"}},
	)
	for _, c := range []struct {
		ip, layer string
	}{
		{"10.1.2.3", "organization"}, {"172.31.255.255", "organization"}, {"192.168.0.1", "organization"}, {"100.64.0.1", "organization"},
		{"fd12::1", "organization"}, {"169.254.169.254", "organization"}, {"fd00:ec2::254", "organization"}, {"::ffff:10.0.0.1", "organization"},
		{"198.51.100.7", "organization"}, {"2001:db8::5", "organization"}, {"203.0.113.9", "organization"},
		{"127.0.0.2", "user"}, {"::ffff:127.0.0.2", "user"}, {"::2", "user"},
	} {
		r := a.AdmitAddr(netip.MustParseAddr(c.ip))
		if r == nil || r.Layer != c.layer || r.Reason != surface.ReasonHostDenied {
			t.Errorf("AdmitAddr(%s) = %+v, want denied by %s", c.ip, r, c.layer)
		}
	}
	for _, ip := range []string{"127.0.0.1", "127.0.0.3", "8.8.8.8", "172.32.0.1", "169.254.1.1", "::1", "2001:db9::1"} {
		if r := a.AdmitAddr(netip.MustParseAddr(ip)); r != nil {
			t.Errorf("AdmitAddr(%s) = %+v, want admitted", ip, r)
		}
	}
	if r := a.AdmitAddrPort(netip.MustParseAddr("127.0.0.3"), 8080); r == nil || r.Host != "127.0.0.3" {
		t.Errorf("AdmitAddrPort(127.0.0.3, 8080) = %+v", r)
	}
	if r := a.AdmitAddrPort(netip.MustParseAddr("127.0.0.3"), 8081); r != nil {
		t.Errorf("AdmitAddrPort(127.0.0.3, 8081) = %+v", r)
	}
	if r := a.AdmitAddr(netip.MustParseAddr("::ffff:10.0.0.1")); r == nil || r.Host != "10.0.0.1" {
		t.Errorf("a mapped address is named as its IPv4 address: %+v", r)
	}
	if r := a.AdmitAddr(netip.MustParseAddr("fd12::1")); r == nil || r.Host != "[fd12::1]" || !strings.Contains(r.Message, "private") {
		t.Errorf("an IPv6 refusal: %+v", r)
	}
	// An IP address written in a URL meets the address rules up front.
	if r := a.AdmitURL("http://0xa000001/"); r == nil || r.Host != "10.0.0.1" || r.Layer != "organization" {
		t.Errorf("AdmitURL(http://0xa000001/) = %+v", r)
	}
	if r := a.AdmitAddr(netip.Addr{}); r == nil {
		t.Error("the zero address was admitted")
	}
	for _, bad := range []string{"privat", "10.0.0.1/8", "10.0.0.0/33", "::/129", "1.2.3", "fe80::1%eth0"} {
		if _, err := parseAddressRule(bad); err == nil {
			t.Errorf("parseAddressRule(%q) accepted", bad)
		}
	}
	for _, p := range surface.PolicyAddressPresets {
		if nets, err := parseAddressRule(p.Name); err != nil || len(nets) != len(p.CIDRs) {
			t.Errorf("preset %s: %v %v", p.Name, nets, err)
		}
	}
}

// TestSocketRulesSpellings: the WebSocket rules name every spelling
// Chromium's URLPattern sees for a host: a domain with and without its
// trailing dot, an IPv4 address and its mapped IPv6 form, IPv6 colons
// escaped.
func TestSocketRulesSpellings(t *testing.T) {
	got := SocketRules([]Layer{{Name: "organization", DenyHosts: []string{"localhost", "2130706434", "::1", "*.Example.com:8443"}}})
	var pats []string
	for _, r := range got {
		if r.Allow {
			t.Errorf("a denial allows: %+v", r)
		}
		pats = append(pats, r.Pattern)
	}
	want := []string{
		"ws://localhost:*/*", "ws://localhost.:*/*", "wss://localhost:*/*", "wss://localhost.:*/*",
		"ws://127.0.0.2:*/*", `ws://[\:\:ffff\:7f00\:2]:*/*`, "wss://127.0.0.2:*/*", `wss://[\:\:ffff\:7f00\:2]:*/*`,
		`ws://[\:\:1]:*/*`, `wss://[\:\:1]:*/*`,
		"ws://*.example.com:8443/*", "ws://*.example.com.:8443/*", "wss://*.example.com:8443/*", "wss://*.example.com.:8443/*",
	}
	if fmt.Sprint(pats) != fmt.Sprint(want) {
		t.Errorf("got  %q\nwant %q", pats, want)
	}
}

// FuzzCanonicalHost: the canonical form is idempotent, and random
// spellings of one random IPv4 address (decimal, octal, hex, short forms,
// mapped IPv6 in either notation, trailing dot, brackets, port, userinfo)
// agree on it.
func FuzzCanonicalHost(f *testing.F) {
	f.Add("example.com", uint32(0x7f000002), uint8(0))
	f.Add("[::ffff:7f00:2]", uint32(0x0a000001), uint8(7))
	f.Add("bücher.example.", uint32(0), uint8(255))
	f.Add("0x7f.1", uint32(0xffffffff), uint8(42))
	f.Fuzz(func(t *testing.T, s string, v uint32, seed uint8) {
		if c, err := CanonicalHost(s); err == nil {
			if again, err := CanonicalHost(c); err != nil || again != c {
				t.Fatalf("CanonicalHost(%q) = %q, then %q, %v", s, c, again, err)
			}
			// A pattern cannot hold every host ("a*b" is a host): one that
			// reads as a pattern is its own canonical pattern.
			if p, err := CanonicalPattern(c); err == nil && p != c {
				t.Fatalf("the canonical host %q reads as the pattern %q", c, p)
			}
		}
		want := netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}).String()
		for i := 0; i < 8; i++ {
			sp := spellIPv4(v, seed+uint8(i)*37)
			got, err := CanonicalHost(sp)
			if err != nil || got != want {
				t.Fatalf("spelling %q of %s: %q, %v", sp, want, got, err)
			}
			if r := New("auto", "org", Layer{Name: "user", DenyHosts: []string{want}}).AdmitHost(sp); r == nil || r.Host != want {
				t.Fatalf("deny %s does not hold for %q: %+v", want, sp, r)
			}
		}
	})
}

// spellIPv4 writes v one of many ways, chosen by k.
func spellIPv4(v uint32, k uint8) string {
	b := [4]uint32{v >> 24, v >> 16 & 0xff, v >> 8 & 0xff, v & 0xff}
	num := func(n uint32, how uint8) string {
		switch how % 4 {
		case 1:
			return fmt.Sprintf("0%o", n)
		case 2:
			return fmt.Sprintf("0x%x", n)
		case 3:
			return fmt.Sprintf("0X%08X", n)
		}
		return fmt.Sprint(n)
	}
	var s string
	switch k % 6 {
	case 0:
		s = num(b[0], k>>3) + "." + num(b[1], k>>4) + "." + num(b[2], k>>5) + "." + num(b[3], k>>6)
	case 1:
		s = num(v, k>>3)
	case 2:
		s = num(b[0], k>>3) + "." + num(v&0xffffff, k>>4)
	case 3:
		s = num(b[0], k>>3) + "." + num(b[1], k>>4) + "." + num(v&0xffff, k>>5)
	case 4:
		return fmt.Sprintf("[::ffff:%x:%x]", v>>16, v&0xffff)
	case 5:
		return fmt.Sprintf("[0:0:0:0:0:FFFF:%d.%d.%d.%d]:%d", b[0], b[1], b[2], b[3], k)
	}
	switch k >> 6 {
	case 1:
		s += "."
	case 2:
		s += ":" + fmt.Sprint(k)
	case 3:
		s = "u:p@" + s
	}
	return s
}

// TestCheckRestrictHosts: a call's restrict_hosts entry that names no host
// is refused at its pointer, rule format; the forms a layer takes pass.
func TestCheckRestrictHosts(t *testing.T) {
	if r := CheckRestrictHosts([]string{"ok.example", "[::1]:8080", "2130706434", "*.1.2.3.4"}); r == nil || r.Reason != surface.ReasonInvalidArguments ||
		r.Pointer != "/restrict_hosts/3" || r.Rule != surface.RuleFormat || r.Limit != "host_pattern" {
		t.Fatalf("refusal %+v", r)
	}
	if r := CheckRestrictHosts([]string{"::1", "*.example.com", "localhost:3000"}); r != nil {
		t.Fatalf("refused %+v", r)
	}
}

// TestLoopbackSpellingsMeetLoopbackDenials: 0.0.0.0 and :: connect to this
// machine's loopback, and localhost (with every *.localhost name) is that
// loopback without DNS, so a denial of a loopback address or of localhost
// holds against each of them, up front and at the proxy's address check;
// an address elsewhere is not caught by it.
func TestLoopbackSpellingsMeetLoopbackDenials(t *testing.T) {
	ip := New("auto", "org", Layer{Name: "user", Caps: AllCaps, DenyHosts: []string{"127.0.0.1", "[::1]"}})
	for _, u := range []string{"http://0.0.0.0:8080/", "http://0/", "http://0x0:81/", "http://[::]:9/", "http://[::ffff:0.0.0.0]/", "http://localhost:8080/", "http://a.b.localhost/", "http://127.1/"} {
		if r := ip.AdmitURL(u); r == nil || r.Layer != "user" {
			t.Errorf("deny 127.0.0.1: AdmitURL(%s) = %+v", u, r)
		}
	}
	for _, a := range []string{"0.0.0.0", "::", "::ffff:0.0.0.0"} {
		if r := ip.AdmitAddrPort(netip.MustParseAddr(a), 80); r == nil {
			t.Errorf("deny 127.0.0.1: AdmitAddrPort(%s) admitted", a)
		}
	}
	local := New("auto", "org", Layer{Name: "user", Caps: AllCaps, DenyHosts: []string{"localhost"}})
	for _, u := range []string{"http://localhost/", "http://LOCALHOST./", "http://x.localhost:3000/", "http://127.0.0.1/", "http://127.1:8080/", "http://127.0.0.2/", "http://0.0.0.0/", "http://[::1]/", "http://[::]/"} {
		if r := local.AdmitURL(u); r == nil || r.Layer != "user" {
			t.Errorf("deny localhost: AdmitURL(%s) = %+v", u, r)
		}
	}
	if r := local.AdmitAddr(netip.MustParseAddr("127.5.6.7")); r == nil {
		t.Error("deny localhost: 127.5.6.7 admitted")
	}
	port := New("auto", "org", Layer{Name: "user", Caps: AllCaps, DenyHosts: []string{"localhost:3000"}})
	if port.AdmitURL("http://127.0.0.1:3000/") == nil || port.AdmitURL("http://127.0.0.1:3001/") != nil {
		t.Error("deny localhost:3000 holds for that port only")
	}
	for _, u := range []string{"http://127.0.0.2/", "http://10.0.0.1/", "http://localhost.example/", "http://example.com/"} {
		if r := ip.AdmitURL(u); r != nil {
			t.Errorf("deny 127.0.0.1: AdmitURL(%s) = %+v, want admitted", u, r)
		}
	}
	app := New("auto", "org", Layer{Name: "user", Caps: AllCaps, DenyHosts: []string{"app.localhost"}})
	if app.AdmitURL("http://app.localhost:3000/") == nil || app.AdmitURL("http://web.localhost:3000/") != nil || app.AdmitURL("http://127.0.0.1:3000/") != nil {
		t.Error("deny app.localhost denies that name only")
	}
	wild := New("auto", "org", Layer{Name: "user", Caps: AllCaps, DenyHosts: []string{"*.localhost"}})
	if wild.AdmitURL("http://127.0.0.1/") == nil {
		t.Error("deny *.localhost: 127.0.0.1 admitted")
	}
	if r := local.AdmitURL("http://localhost.example/"); r != nil {
		t.Errorf("deny localhost: a name that only starts with it is refused: %+v", r)
	}
}
