// Package governance decides what a call may do. An Authority is an immutable
// snapshot taken when a call starts: restrictions narrow it, nothing widens
// it, and the permanent ceilings hold under every authority.
package governance

import (
	"net"
	"net/url"
	"strings"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// Layer is one source of authority, in the order they apply.
type Layer struct {
	Name string // "ceiling", "configuration", "restriction"
	// Caps allowed by this layer; AllCaps when it says nothing about them.
	Caps surface.Caps
	// Hosts patterns allowed by this layer; nil allows every host.
	Hosts []string
	// Constraints this layer denies (e.g. "tab_close").
	DenyConstraints []string
}

// AllCaps is every capability.
var AllCaps = surface.CapsOf(stringsOf(surface.CapabilityValues))

func stringsOf(cs []surface.Capability) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = string(c)
	}
	return out
}

// Authority is an immutable snapshot of the layers in force.
type Authority struct {
	layers       []Layer
	startup      string
	organization string
}

// Ceilings are permanent: they hold under every authority, all-open included.
var Ceilings = []string{
	"URLs must be absolute http or https URLs; file:, data:, javascript: and browser-internal schemes are never reachable.",
	"Credential-class fields (passwords, one-time codes, payment cards) are never filled by the model; they stop for a visible user handoff.",
	"Script source and results, dialog text, file paths, names and contents never enter audit records.",
}

// AllOpen is the default authority: every capability and host, under the
// permanent ceilings.
func AllOpen(startup string) *Authority {
	return &Authority{layers: []Layer{{Name: "configuration", Caps: AllCaps}}, startup: startup, organization: "none (local)"}
}

// New builds an authority from configured layers.
func New(startup, organization string, layers ...Layer) *Authority {
	return &Authority{layers: append([]Layer(nil), layers...), startup: startup, organization: organization}
}

// Narrow returns the authority with a call's own restrictions applied. It
// never widens: a restriction is one more layer every check must pass.
func (a *Authority) Narrow(r surface.Restrictions) *Authority {
	if r.Hosts == nil && r.Capabilities == nil {
		return a
	}
	l := Layer{Name: "restriction", Caps: AllCaps, Hosts: r.Hosts}
	if r.Capabilities != nil {
		l.Caps = surface.CapsOf(r.Capabilities)
	}
	n := *a
	n.layers = append(append([]Layer(nil), a.layers...), l)
	return &n
}

// Admit checks what a call needs against every layer. It returns nil when the
// call may proceed, else the refusal naming the first thing denied.
func (a *Authority) Admit(n surface.Needs) *surface.Refusal {
	for _, c := range n.Caps.List() {
		if r := a.AdmitCapability(c); r != nil {
			return r
		}
	}
	for _, c := range n.Constraints {
		for _, l := range a.layers {
			for _, d := range l.DenyConstraints {
				if d == c {
					return &surface.Refusal{Reason: surface.ReasonConstraintDenied, Limit: c, Message: "the " + l.Name + " layer denies " + strings.ReplaceAll(c, "_", " ")}
				}
			}
		}
	}
	for _, u := range n.URLs {
		if r := a.AdmitURL(u); r != nil {
			return r
		}
	}
	return nil
}

// AdmitCapability checks one capability.
func (a *Authority) AdmitCapability(c surface.Capability) *surface.Refusal {
	bit := surface.CapsOf([]string{string(c)})
	for _, l := range a.layers {
		if !l.Caps.Has(bit) {
			return &surface.Refusal{Reason: surface.ReasonCapabilityDenied, Capability: c, Message: "the " + l.Name + " layer does not allow " + string(c)}
		}
	}
	return nil
}

// AdmitURL checks a URL the call will reach (a navigation target, or the page
// an action runs on) against the ceilings and every host layer.
func (a *Authority) AdmitURL(raw string) *surface.Refusal {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
		host := ""
		if u != nil {
			host = u.Scheme + ":"
		}
		return &surface.Refusal{Reason: surface.ReasonHostDenied, Host: host, Message: "only http and https pages are reachable"}
	}
	return a.AdmitHost(u.Host)
}

// AdmitHost checks a host (host or host:port) against every host layer.
func (a *Authority) AdmitHost(hostport string) *surface.Refusal {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	for _, l := range a.layers {
		if l.Hosts == nil {
			continue
		}
		ok := false
		for _, p := range l.Hosts {
			if MatchHost(p, host, hostport) {
				ok = true
				break
			}
		}
		if !ok {
			return &surface.Refusal{Reason: surface.ReasonHostDenied, Host: host, Message: "the " + l.Name + " layer does not allow " + host}
		}
	}
	return nil
}

// MatchHost matches a pattern ("example.com", "*.example.com", or
// "host:port") against a host name (and its host:port form).
func MatchHost(pattern, host, hostport string) bool {
	p := strings.ToLower(pattern)
	if strings.Contains(p, ":") {
		return p == strings.ToLower(hostport)
	}
	if suffix, ok := strings.CutPrefix(p, "*."); ok {
		return strings.HasSuffix(host, "."+suffix)
	}
	return host == p
}

// Layers returns the layers in force (for policy_explain).
func (a *Authority) Layers() []Layer { return append([]Layer(nil), a.layers...) }

// Startup is the browser startup posture.
func (a *Authority) Startup() string { return a.startup }

// Organization names who configured the authority.
func (a *Authority) Organization() string { return a.organization }
