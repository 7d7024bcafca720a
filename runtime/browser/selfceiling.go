package browser

import (
	"sort"
	"strings"
)

// The self-host ceiling's side in the browser: every request to a ceiling
// port is held whatever the boundary's mode, and Boundary.Ceiling decides it.
// Fetch patterns match the whole URL, so "*:PORT/*" holds a request to any
// host spelling on that port (and, harmlessly, a URL whose path holds
// ":PORT/": the ceiling admits it). A default port is not written in URLs:
// port 80 or 443 holds every request of its schemes.

func (b Boundary) ceiling(host string) (bool, string) {
	if b.Ceiling == nil {
		return true, ""
	}
	return b.Ceiling(host, RequestSubresource)
}

// ceilingKey identifies the ceiling's ports and socket rules (a guard
// re-applies its patterns when they change).
func (b Boundary) ceilingKey() string {
	if b.Ceiling == nil || len(b.CeilingPorts) == 0 && len(b.CeilingSockets) == 0 {
		return ""
	}
	ports := append([]string(nil), b.CeilingPorts...)
	sort.Strings(ports)
	socks := make([]string, 0, len(b.CeilingSockets))
	for _, r := range b.CeilingSockets {
		socks = append(socks, r.Pattern)
	}
	sort.Strings(socks)
	return "|" + strings.Join(ports, ",") + "|" + strings.Join(socks, ",")
}

// heldKey is what a guard applies for b: "nav…" documents only, "nets…"
// documents only with the ceiling's socket rules (Network on), "all…" every
// request with every socket rule.
func (b Boundary) heldKey() string {
	switch {
	case b.All:
		return b.socketKey()
	case b.Ceiling != nil && len(b.CeilingSockets) > 0:
		return "nets" + b.ceilingKey()
	}
	return "nav" + b.ceilingKey()
}

// netOn: the key has Network on for socket rules.
func netOn(key string) bool { return strings.HasPrefix(key, "all") || strings.HasPrefix(key, "nets") }

// socketRules are the rules in force: the ceiling's first, then the layers'
// under "all".
func (b Boundary) socketRules() []SocketRule {
	var out []SocketRule
	if b.Ceiling != nil {
		out = append(out, b.CeilingSockets...)
	}
	if b.All {
		out = append(out, b.Sockets...)
	}
	return out
}

// ceilingPatterns are the Fetch patterns that hold every request to a ceiling
// port.
func (b Boundary) ceilingPatterns() []map[string]any {
	if b.Ceiling == nil {
		return nil
	}
	var out []map[string]any
	add := func(p string) { out = append(out, map[string]any{"urlPattern": p, "requestStage": "Request"}) }
	for _, p := range b.CeilingPorts {
		switch p {
		case "80":
			add("http://*")
		case "443":
			add("https://*")
		}
		add("*:" + p + "/*")
	}
	return out
}
