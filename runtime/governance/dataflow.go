package governance

import (
	"fmt"
	"strings"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// Cross-site flow decisions (data_flow.cross_site in spec/policy.cue).
const (
	FlowAllow   = "allow"
	FlowLog     = "log"
	FlowConfirm = "confirm"
	FlowDeny    = "deny"
)

// flowRule is one layer's data_flow: its cross_site ("" when it sets none)
// and its exceptions.
type flowRule struct {
	layer     string
	crossSite string
	allow     []flowPair
	monitor   bool // the layer is in monitor mode: it decides nothing
}

// wouldFlow is a monitor-mode layer's decision that was not made.
type wouldFlow struct{ layer, decision string }

type flowPair struct{ from, to hostPat }

// flowRank orders decisions narrowest first.
var flowRank = map[string]int{FlowDeny: 0, FlowConfirm: 1, FlowLog: 2, FlowAllow: 3}

// decideFlow is the decision for text of site from written to site to
// (sites as origin.Site spells them): each layer that sets cross_site
// decides for itself (allow when one of its own exceptions covers the
// pair), and the narrowest decision wins, naming its layer; with no layer
// setting it, the schema's default under layer "default". A layer in
// monitor mode decides nothing: a confirm or deny of its own is returned
// in would instead. Pure.
func decideFlow(rules []flowRule, def, from, to string) (decision, layer string, would []wouldFlow) {
	decision, layer = def, "default"
	set := false
	for _, r := range rules {
		if r.crossSite == "" {
			continue
		}
		d := r.crossSite
		for _, p := range r.allow {
			if patternCoversSite(p.from, from) && patternCoversSite(p.to, to) {
				d = FlowAllow
				break
			}
		}
		if r.monitor {
			if d == FlowDeny || d == FlowConfirm {
				would = append(would, wouldFlow{r.layer, d})
			}
			continue
		}
		if !set || flowRank[d] < flowRank[decision] {
			decision, layer, set = d, r.layer, true
		}
	}
	return decision, layer, would
}

// patternCoversSite: a host pattern matches a site when it names the
// site's domain ("crm.example", "*.crm.example" both cover
// https://crm.example) or a domain the site lies under ("*.example"). A
// site's text may come from any of its hosts, so a pattern naming one host
// below the domain does not cover it. Ports are not part of a site.
func patternCoversSite(p hostPat, site string) bool {
	_, d, ok := strings.Cut(site, "://")
	if !ok {
		return false
	}
	if p.wild && p.host == "" {
		return true
	}
	if d == p.host {
		return true
	}
	return p.wild && strings.HasSuffix(d, "."+p.host)
}

// parseFlowException reads "FROM -> TO".
func parseFlowException(s string) (flowPair, error) {
	from, to, ok := strings.Cut(s, " -> ")
	if !ok {
		return flowPair{}, fmt.Errorf("%q is not an exception: write \"FROM -> TO\" with host patterns", s)
	}
	f, err := parsePattern(strings.TrimSpace(from))
	if err != nil {
		return flowPair{}, err
	}
	t, err := parsePattern(strings.TrimSpace(to))
	if err != nil {
		return flowPair{}, err
	}
	return flowPair{f, t}, nil
}

// flowWithin: exception a lies within b when both its ends lie within b's.
func flowWithin(a, b string) bool {
	fa, ta, ok1 := strings.Cut(a, " -> ")
	fb, tb, ok2 := strings.Cut(b, " -> ")
	return ok1 && ok2 && hostWithin(strings.TrimSpace(fa), strings.TrimSpace(fb)) && hostWithin(strings.TrimSpace(ta), strings.TrimSpace(tb))
}

// flowRules compiles every layer's data_flow, and the cross_site of each
// site rule whose pattern covers the site written to.
func (a *Authority) flowRules(to string) []flowRule {
	var out []flowRule
	for _, l := range a.layers {
		for _, sr := range l.sites {
			if sr.crossSite != "" && patternCoversSite(sr.pat, to) {
				out = append(out, flowRule{layer: l.Name, crossSite: sr.crossSite, monitor: l.Monitor})
			}
		}
		r := flowRule{layer: l.Name, monitor: l.Monitor}
		if v, ok := l.policy.Lookup("/data_flow/cross_site"); ok {
			r.crossSite = v.(string)
		}
		if v, ok := l.policy.Lookup("/data_flow/allow"); ok {
			for _, s := range v.([]string) {
				if p, err := parseFlowException(s); err == nil {
					r.allow = append(r.allow, p)
				}
			}
		}
		if r.crossSite != "" {
			out = append(out, r)
		}
	}
	return out
}

// DataFlow decides a cross-site flow of text from site from to site to.
// A monitor-mode layer's deny or confirm is noted on the call's watch.
func (a *Authority) DataFlow(from, to string) (decision, layer string) {
	decision, layer, would := decideFlow(a.flowRules(to), settingAt("/data_flow/cross_site").Default, from, to)
	for _, w := range would {
		reason := surface.ReasonDataFlowDenied
		if w.decision == FlowConfirm {
			reason = surface.ReasonDataFlowConfirm
		}
		a.watch.add(surface.WouldDeny{Reason: reason, Layer: w.layer, From: from, Host: siteDomain(to)})
	}
	return decision, layer
}

// siteDomain is a site's host part ("https://crm.example" → "crm.example").
func siteDomain(site string) string {
	_, d, _ := strings.Cut(site, "://")
	return d
}

// DataFlowRefusal is the refusal of a denied flow, naming the source site.
func DataFlowRefusal(f surface.DataFlow) *surface.Refusal {
	return &surface.Refusal{Reason: surface.ReasonDataFlowDenied, Layer: f.Layer, Host: "", DataFlow: &f,
		Message: "the " + f.Layer + " layer denies writing text from " + f.From + " to " + f.To}
}

// DataFlowConfirmation is the answer to a flow the person must allow.
func DataFlowConfirmation(f surface.DataFlow) *surface.Refusal {
	return &surface.Refusal{Reason: surface.ReasonDataFlowConfirm, Layer: f.Layer, DataFlow: &f,
		Message: "a write carrying text from " + f.From + " to " + f.To}
}
