package governance

// The self-host ceiling. Some listeners are never a page's to reach, whatever a
// layer says: the DevTools endpoint of a browser Ghostlight attached to (the
// person's --browser-endpoint, a prepared browser: whoever reaches it drives
// the browser, every session's tabs included), and Ghostlight's own MCP (--http)
// and workbench listeners. The server registers each as it learns its address;
// the ceiling refuses a navigation or request to any of them in every layer and
// mode. A browser Ghostlight launches has no such endpoint: it is driven over a
// pipe.
//
// Hosts compare by canonical form. A port on a loopback address is reachable
// through every loopback spelling (localhost and *.localhost, any 127.0.0.0/8
// address in any IPv4 notation, [::1], IPv4-mapped forms), so a loopback
// listener's port is refused on all of them; a listener on an unspecified
// address (0.0.0.0, [::]) is refused on loopback and on every address of this
// machine's interfaces. A host with no port stands for its scheme's default
// port: AdmitURL says which; AdmitHost, without a scheme, treats it as both 80
// and 443.

import (
	"net"
	"net/netip"
	"strconv"
	"strings"
	"sync"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
)

// Kinds of self host, as the refusal names them.
const (
	SelfDevTools  = language.SelfDevTools
	SelfMCP       = language.SelfMCP
	SelfWorkbench = language.SelfWorkbench
)

type selfHost struct {
	kind     string
	host     string     // canonical name, "" for an address
	addr     netip.Addr // canonical address (unmapped), when host is an address
	loopback bool       // reached by every loopback spelling
	any      bool       // an unspecified address: loopback and every local address
	port     string
}

var selfHosts struct {
	mu   sync.Mutex
	next int
	set  map[int]selfHost
}

// RegisterSelfHost puts a listener (host:port, a ws:// or http:// URL) under
// the ceiling and returns the function that takes it out (a listener that
// closed, an endpoint the server no longer uses). A value it cannot read
// registers nothing.
func RegisterSelfHost(kind, address string) (unregister func()) {
	h, ok := parseSelfHost(kind, address)
	if !ok {
		return func() {}
	}
	selfHosts.mu.Lock()
	defer selfHosts.mu.Unlock()
	if selfHosts.set == nil {
		selfHosts.set = map[int]selfHost{}
	}
	id := selfHosts.next
	selfHosts.next++
	selfHosts.set[id] = h
	var once sync.Once
	return func() {
		once.Do(func() {
			selfHosts.mu.Lock()
			delete(selfHosts.set, id)
			selfHosts.mu.Unlock()
		})
	}
}

// SelfPorts lists the ports of the registered self hosts (the browser holds
// every request to these ports whatever the mode, so the ceiling decides them).
func SelfPorts() []string {
	selfHosts.mu.Lock()
	defer selfHosts.mu.Unlock()
	var out []string
	seen := map[string]bool{}
	for _, h := range selfHosts.set {
		if !seen[h.port] {
			seen[h.port] = true
			out = append(out, h.port)
		}
	}
	return out
}

func parseSelfHost(kind, address string) (selfHost, bool) {
	hostport := address
	defPort := ""
	if scheme, rest, ok := strings.Cut(address, "://"); ok {
		hostport, _, _ = strings.Cut(rest, "/")
		switch strings.ToLower(scheme) {
		case "http", "ws":
			defPort = "80"
		case "https", "wss":
			defPort = "443"
		}
	}
	host, port := splitHostPort(hostport)
	if port == "" {
		port = defPort
	}
	if port == "" {
		return selfHost{}, false
	}
	h := selfHost{kind: kind, port: port}
	if host == "" {
		h.any = true // ":8080" listens on every address
		return h, true
	}
	if a, ok := canonicalAddr(host); ok {
		h.addr = a
		h.any = a.IsUnspecified()
		h.loopback = a.IsLoopback()
		return h, true
	}
	h.host = canonicalName(host)
	h.loopback = isLoopbackName(h.host)
	return h, true
}

// ceilingURL is the self-host ceiling for a URL: its port is the explicit one,
// else its scheme's default.
func ceilingURL(raw string) *surface.Refusal {
	scheme, rest, ok := strings.Cut(raw, "://")
	if !ok {
		return nil
	}
	hostport, _, _ := strings.Cut(rest, "/")
	hostport, _, _ = strings.Cut(hostport, "?")
	hostport, _, _ = strings.Cut(hostport, "#")
	if i := strings.LastIndexByte(hostport, '@'); i >= 0 {
		hostport = hostport[i+1:] // userinfo is not the host
	}
	host, port := splitHostPort(hostport)
	if port == "" {
		switch strings.ToLower(scheme) {
		case "http", "ws":
			port = "80"
		case "https", "wss":
			port = "443"
		default:
			return nil
		}
	}
	return ceilingHostPort(host, []string{port})
}

// SelfHostRefusal is the self-host ceiling for host or host:port (a host
// without a port stands for 80 and 443): the refusal when it names a
// registered listener, else nil. AdmitHost applies it first; the browser asks
// it for requests held in every mode (SelfPorts).
func SelfHostRefusal(hostport string) *surface.Refusal { return ceilingHost(hostport) }

func ceilingHost(hostport string) *surface.Refusal {
	host, port := splitHostPort(hostport)
	ports := []string{port}
	if port == "" {
		ports = []string{"80", "443"}
	}
	return ceilingHostPort(host, ports)
}

func ceilingHostPort(host string, ports []string) *surface.Refusal {
	selfHosts.mu.Lock()
	if len(selfHosts.set) == 0 {
		selfHosts.mu.Unlock()
		return nil
	}
	hs := make([]selfHost, 0, len(selfHosts.set))
	for _, h := range selfHosts.set {
		hs = append(hs, h)
	}
	selfHosts.mu.Unlock()
	addr, isAddr := canonicalAddr(host)
	name := canonicalName(host)
	loop := isAddr && addr.IsLoopback() || !isAddr && isLoopbackName(name)
	for _, h := range hs {
		if !hasPort(ports, h.port) {
			continue
		}
		hit := false
		switch {
		case loop && (h.loopback || h.any):
			hit = true
		case h.any:
			hit = isAddr && (addr.IsUnspecified() || localAddr(addr))
		case h.host != "":
			hit = !isAddr && name == h.host
		default:
			hit = isAddr && addr == h.addr
		}
		if hit {
			shown := net.JoinHostPort(strings.Trim(host, "[]"), h.port)
			return &surface.Refusal{Reason: surface.ReasonHostDenied, Host: strings.ToLower(strings.Trim(host, "[]")),
				Layer: surface.PolicyLayerCeiling, Message: language.SelfHostRefused(h.kind, shown)}
		}
	}
	return nil
}

func hasPort(ports []string, p string) bool {
	for _, x := range ports {
		if x == p {
			return true
		}
	}
	return false
}

// splitHostPort splits host[:port] ([v6][:port] too); the host comes back
// without brackets.
func splitHostPort(hostport string) (host, port string) {
	if h, p, err := net.SplitHostPort(hostport); err == nil {
		return h, p
	}
	return strings.Trim(hostport, "[]"), ""
}

func canonicalName(h string) string {
	return strings.TrimSuffix(strings.ToLower(h), ".")
}

func isLoopbackName(n string) bool {
	return n == "localhost" || strings.HasSuffix(n, ".localhost")
}

// canonicalAddr reads an address in any spelling a URL host may use: IPv6
// (zones dropped, IPv4-mapped forms as their IPv4 address) and IPv4 in the
// WHATWG notations (decimal, octal, hexadecimal, one to four parts), so every
// spelling of one address compares equal.
func canonicalAddr(h string) (netip.Addr, bool) {
	h = strings.TrimSuffix(strings.Trim(h, "[]"), ".")
	if i := strings.IndexByte(h, '%'); i >= 0 {
		h = h[:i]
	}
	if a, err := netip.ParseAddr(h); err == nil {
		return a.Unmap(), true
	}
	parts := strings.Split(h, ".")
	if len(parts) > 4 {
		return netip.Addr{}, false
	}
	nums := make([]uint64, len(parts))
	for i, p := range parts {
		n, ok := ipv4Part(p)
		if !ok {
			return netip.Addr{}, false
		}
		nums[i] = n
	}
	var v uint64
	for i, n := range nums[:len(nums)-1] {
		if n > 255 {
			return netip.Addr{}, false
		}
		v |= n << (8 * (3 - i))
	}
	last := nums[len(nums)-1]
	if last >= 1<<(8*(5-len(nums))) {
		return netip.Addr{}, false
	}
	v |= last
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
}

func ipv4Part(p string) (uint64, bool) {
	if p == "" {
		return 0, false
	}
	base := 10
	switch {
	case len(p) > 1 && (p[:2] == "0x" || p[:2] == "0X"):
		base, p = 16, p[2:]
		if p == "" {
			return 0, true
		}
	case len(p) > 1 && p[0] == '0':
		base, p = 8, p[1:]
	}
	n, err := strconv.ParseUint(p, base, 40)
	return n, err == nil
}

// localAddr reports whether a is an address of this machine's interfaces.
func localAddr(a netip.Addr) bool {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return false
	}
	for _, x := range addrs {
		if n, ok := x.(*net.IPNet); ok {
			if b, ok := netip.AddrFromSlice(n.IP); ok && b.Unmap() == a {
				return true
			}
		}
	}
	return false
}

// SelfHostPattern is a host:port a WebSocket rule refuses for the ceiling.
type SelfHostPattern struct{ Host, Port string }

// SelfSocketHosts lists, for the browser's WebSocket rules (which match URL
// patterns, not canonical hosts), the spellings under which a registered
// listener is reached: a loopback (or unspecified) listener's port on
// 127.0.0.1, localhost, *.localhost and [::1], any other by its own host.
// Chromium writes every IPv4 notation as dotted decimal before the rule
// sees it; a wildcard inside an address ("127.*") matched nothing on
// Chromium 156 (measured), so other 127.0.0.0/8 addresses and IPv4-mapped
// IPv6 spellings are not named: a listener bound to 127.0.0.1 (as
// Chromium's DevTools is) is not reached through them on Linux.
func SelfSocketHosts() []SelfHostPattern {
	selfHosts.mu.Lock()
	defer selfHosts.mu.Unlock()
	var out []SelfHostPattern
	seen := map[SelfHostPattern]bool{}
	add := func(h, p string) {
		k := SelfHostPattern{h, p}
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	for _, h := range selfHosts.set {
		switch {
		case h.loopback || h.any:
			for _, l := range []string{"127.0.0.1", "localhost", "*.localhost", "[::1]"} {
				add(l, h.port)
			}
			if h.any {
				add("0.0.0.0", h.port)
			}
		case h.host != "":
			add(h.host, h.port)
		case h.addr.Is6():
			add("["+h.addr.String()+"]", h.port)
		default:
			add(h.addr.String(), h.port)
		}
	}
	return out
}
