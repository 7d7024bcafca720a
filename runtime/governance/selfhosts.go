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
	if scheme, auth := urlAuthority(address); auth != "" {
		hostport, defPort = auth, defaultPort(scheme)
	}
	host, port, err := splitHostPort(hostport)
	if err != nil {
		return selfHost{}, false
	}
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
	c, err := canonicalHost(host)
	if err != nil {
		return selfHost{}, false
	}
	if c.kind != hostDomain {
		h.addr = c.addr
		h.any = c.addr.IsUnspecified()
		h.loopback = c.addr.IsLoopback()
		return h, true
	}
	h.host = c.name
	h.loopback = isLoopbackName(h.host)
	return h, true
}

// defaultPort is a web scheme's port when a URL names none.
func defaultPort(scheme string) string {
	switch scheme {
	case "http", "ws":
		return "80"
	case "https", "wss":
		return "443"
	}
	return ""
}

// ceilingURL is the self-host ceiling for a URL: its port is the explicit one,
// else its scheme's default.
func ceilingURL(raw string) *surface.Refusal {
	scheme, auth := urlAuthority(raw)
	if auth == "" {
		return nil
	}
	host, port, err := splitHostPort(auth)
	if err != nil {
		return nil // not a host: AdmitURL refuses it
	}
	if port == "" {
		if port = defaultPort(scheme); port == "" {
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
	host, port, err := splitHostPort(hostport)
	if err != nil {
		return nil // not a host: AdmitHost refuses it
	}
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
	c, err := canonicalHost(host)
	if err != nil {
		return nil // not a host: AdmitHost refuses it
	}
	addr, isAddr, name := c.addr, c.kind != hostDomain, c.name
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
			shown := name + ":" + h.port
			return &surface.Refusal{Reason: surface.ReasonHostDenied, Host: name,
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

func isLoopbackName(n string) bool {
	return n == "localhost" || strings.HasSuffix(n, ".localhost")
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

// SelfSocketRules are the browser's WebSocket rules for the ceiling (denials
// only; URLPattern matches Chromium's URLs, not canonical hosts): a loopback
// (or unspecified) listener's port on 127.0.0.1, localhost, *.localhost and
// [::1], any other by its own host, each in every spelling SocketRules
// writes (sockets.go). A wildcard inside an address ("127.*") matched
// nothing on Chromium 156 (measured), so other 127.0.0.0/8 addresses are
// not named: a listener bound to 127.0.0.1 (as Chromium's DevTools is) is
// not reached through them on Linux.
func SelfSocketRules() []SocketRule {
	selfHosts.mu.Lock()
	hs := make([]selfHost, 0, len(selfHosts.set))
	for _, h := range selfHosts.set {
		hs = append(hs, h)
	}
	selfHosts.mu.Unlock()
	var rules []SocketRule
	seen := map[string]bool{}
	add := func(host, port string) {
		if seen[host+" "+port] {
			return
		}
		seen[host+" "+port] = true
		p, err := parsePattern(host + ":" + port)
		if err != nil {
			return
		}
		rules = appendSocketRules(rules, p, false)
	}
	for _, h := range hs {
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
		default:
			add(fromAddr(h.addr).name, h.port)
		}
	}
	return rules
}
