package governance

import (
	"sort"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// Per-site rules (policy `sites`): a layer's entries keyed by host
// pattern, each narrowing the authority on the pages whose host the
// pattern matches (the one host matcher, pattern.go), for a navigation to
// such a page too. They never widen: they apply beside the layer's own
// rules, and every layer's entries apply.

// siteRule is one entry, parsed.
type siteRule struct {
	pat       hostPat
	as        string       // the key as written, canonical
	deny      surface.Caps // capabilities the entry denies on those pages
	crossSite string       // its data_flow.cross_site ("" none)
}

// compileSites reads a layer's sites map in a stable order (its keys
// sorted), skipping keys that do not parse (loading refused them).
func compileSites(p *surface.Policy) []siteRule {
	v, ok := p.Lookup("/sites")
	if !ok {
		return nil
	}
	m := v.(map[string]*surface.PolicySitesValue)
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []siteRule
	for _, k := range keys {
		pat, err := parsePattern(k)
		if err != nil {
			continue
		}
		e, r := m[k], siteRule{pat: pat, as: pat.String()}
		if e != nil && e.Capabilities != nil {
			for c, val := range map[surface.Capability]string{surface.CapabilityRead: e.Capabilities.Read, surface.CapabilityAction: e.Capabilities.Action,
				surface.CapabilityWrite: e.Capabilities.Write, surface.CapabilityExecute: e.Capabilities.Execute} {
				if val == "deny" {
					r.deny |= surface.CapsOf([]string{string(c)})
				}
			}
		}
		if e != nil && e.DataFlow != nil {
			r.crossSite = e.DataFlow.CrossSite
		}
		out = append(out, r)
	}
	return out
}

// AdmitSite checks the capabilities a call needs against the site rules
// whose pattern matches the host of the page it acts on, or navigates to:
// nil, or capability_denied naming the pattern and its layer. A URL that
// names no host matches no rule (AdmitURL refuses it).
func (a *Authority) AdmitSite(rawURL string, need surface.Caps) *surface.Refusal {
	scheme, authority := urlAuthority(rawURL)
	if scheme != "http" && scheme != "https" || authority == "" {
		return nil
	}
	h, port, err := splitHostPort(authority)
	if err != nil {
		return nil
	}
	c, err := canonicalHost(h)
	if err != nil {
		return nil
	}
	for _, l := range a.layers {
		for _, r := range l.sites {
			if r.deny&need == 0 || !r.pat.matches(c, port, false) {
				continue
			}
			for _, capb := range (r.deny & need).List() {
				ref := &surface.Refusal{Reason: surface.ReasonCapabilityDenied, Capability: capb, Layer: l.Name, Host: c.name,
					Message: "the " + l.Name + " layer does not allow " + string(capb) + " on pages of " + r.as}
				if ref = a.refuse(l, ref); ref != nil {
					return ref
				}
			}
		}
	}
	return nil
}

// deniedOn lists, for one capability, the site patterns whose pages deny
// it, as "PATTERN (layer)", for policy_explain.
func (a *Authority) deniedOn(c surface.Capability) []string {
	bit := surface.CapsOf([]string{string(c)})
	var out []string
	for _, l := range a.layers {
		if l.Monitor {
			continue
		}
		for _, r := range l.sites {
			if r.deny&bit != 0 {
				out = append(out, r.as+" ("+l.Name+")")
			}
		}
	}
	return out
}
