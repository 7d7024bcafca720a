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

// ceilingKey identifies the ceiling's ports (a guard re-applies its patterns
// when they change).
func (b Boundary) ceilingKey() string {
	if b.Ceiling == nil || len(b.CeilingPorts) == 0 {
		return ""
	}
	ports := append([]string(nil), b.CeilingPorts...)
	sort.Strings(ports)
	return "|" + strings.Join(ports, ",")
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
