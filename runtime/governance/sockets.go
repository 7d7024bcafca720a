package governance

import (
	"fmt"
	"strings"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// SocketRule is one WebSocket URL rule in URLPattern syntax
// ("ws://example.com:*/*"); the first rule a URL matches decides.
type SocketRule struct {
	Pattern string
	Allow   bool
}

// SocketRules turns the layers' host rules into WebSocket URL rules, first
// match deciding: every denial blocks; when some layer has an allow list,
// the hosts every allow list admits are allowed and every other socket is
// blocked. Chromium's request interception never sees a socket handshake,
// so these rules are what the browser holds sockets to.
//
// URLPattern matches Chromium's own canonical URL, which is not quite the
// canonical host: it keeps a domain's trailing dot and serializes an
// IPv4-mapped IPv6 address as such ([::ffff:7f00:2]); so each pattern is
// written in every spelling Chromium may hand it (measured, Chromium 156).
func SocketRules(layers []Layer) []SocketRule {
	var rules []SocketRule
	add := func(p hostPat, allow bool) { rules = appendSocketRules(rules, p, allow) }
	var allowed []hostPat
	restricted := false
	for _, l := range layers {
		if l.Monitor { // a monitor layer's rules refuse nothing, sockets included
			continue
		}
		lh := l.hosts()
		for _, d := range lh.deny {
			add(d.p, false)
		}
		if lh.allowAll {
			continue
		}
		mine := lh.allow
		if !restricted {
			allowed, restricted = mine, true
			continue
		}
		var next []hostPat
		for _, a := range allowed {
			for _, b := range mine {
				if c, ok := a.intersect(b); ok && !containsPat(next, c) {
					next = append(next, c)
				}
			}
		}
		allowed = next
	}
	if !restricted {
		return rules
	}
	if len(allowed) > surface.PolicyHostsMax {
		allowed = nil // too many to list: no socket leaves (never wider)
	}
	for _, a := range allowed {
		add(a, true)
	}
	add(everyHost, false)
	return rules
}

// appendSocketRules appends the ws and wss rules for a pattern, in every
// spelling urlPatternHosts gives it.
func appendSocketRules(rules []SocketRule, p hostPat, allow bool) []SocketRule {
	port := "*"
	if p.port != "" {
		port = p.port
	}
	for _, scheme := range []string{"ws", "wss"} {
		for _, host := range urlPatternHosts(p) {
			rules = append(rules, SocketRule{Pattern: scheme + "://" + host + ":" + port + "/*", Allow: allow})
		}
	}
	return rules
}

// urlPatternHosts are the hostname parts of URLPattern strings matching
// every spelling Chromium gives the pattern's hosts. In URLPattern syntax
// ':' starts a named group, so an IPv6 address's colons are escaped.
func urlPatternHosts(p hostPat) []string {
	switch {
	case p.wild && p.host == "":
		return []string{"*"}
	case p.wild:
		return []string{"*." + p.host, "*." + p.host + "."}
	case p.kind == hostIPv4:
		c, _ := canonicalHost(p.host)
		b := c.addr.As4()
		mapped := fmt.Sprintf("[::ffff:%x:%x]", uint16(b[0])<<8|uint16(b[1]), uint16(b[2])<<8|uint16(b[3]))
		return []string{p.host, strings.ReplaceAll(mapped, ":", `\:`)}
	case p.kind == hostIPv6:
		return []string{strings.ReplaceAll(p.host, ":", `\:`)}
	}
	return []string{p.host, p.host + "."}
}

func containsPat(l []hostPat, p hostPat) bool {
	for _, x := range l {
		if x == p {
			return true
		}
	}
	return false
}
