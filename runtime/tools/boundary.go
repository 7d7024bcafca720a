package tools

// The host boundary's wiring: the executor holds every request a governed
// tab makes and asks a plain function; this file builds that function from
// the call's authority and says in the result what the boundary stopped.
//
// Who decides: while a call holds a tab, the call's snapshot (its
// restrictions included); between calls, the configured layers of the last
// call on that tab (its snapshot without restrictions). A tab a page opened
// follows its opener until a call governs it.

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
	"github.com/ghostlight-dev/ghostlight/runtime/governance"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
)

// boundaryOf is the executor's boundary for an authority.
func boundaryOf(a *governance.Authority) browser.Boundary {
	if a == nil {
		return browser.Boundary{}
	}
	b := browser.Boundary{
		Admit: func(host string, _ browser.RequestKind) (bool, string) {
			if r := a.AdmitHost(host); r != nil {
				return false, r.Layer
			}
			return true, ""
		},
		All: a.HostRequests() == hostsAll,
		// The self-host ceiling holds in every mode (governance/selfhosts.go).
		Ceiling: func(host string, _ browser.RequestKind) (bool, string) {
			if r := governance.SelfHostRefusal(host); r != nil {
				return false, r.Layer
			}
			return true, ""
		},
		CeilingPorts: governance.SelfPorts(),
	}
	// The ceiling's listeners' sockets are refused in every mode.
	for _, h := range governance.SelfSocketHosts() {
		for _, scheme := range []string{"ws", "wss"} {
			// URLPattern syntax: an IPv6 host's brackets are escaped.
			host := strings.NewReplacer("[", `\[`, "]", `\]`).Replace(h.Host)
			b.CeilingSockets = append(b.CeilingSockets, browser.SocketRule{Pattern: scheme + "://" + host + ":" + h.Port + "/*"})
		}
	}
	if b.All {
		b.Sockets = socketRules(a.Layers())
	}
	return b
}

// hostsAll is hosts.requests' narrow value ("all"): the front of its order.
var hostsAll = func() string {
	for _, st := range surface.PolicySettings {
		if st.Pointer == "/hosts/requests" && len(st.Order) > 0 {
			return st.Order[0]
		}
	}
	return ""
}()

type boundaryCtxKey struct{}

// governed returns ctx carrying the call's boundary for every tab the call
// holds (once per invocation).
func governed(ctx context.Context) context.Context {
	if ctx.Value(boundaryCtxKey{}) != nil {
		return ctx
	}
	inv := pipeline.FromContext(ctx)
	if inv == nil || inv.Authority == nil {
		return ctx
	}
	ctx = browser.WithBoundary(ctx, boundaryOf(inv.Authority), boundaryOf(inv.Authority.Configured()))
	ctx = withDownloads(ctx, inv) // and its download policy (download.go)
	return context.WithValue(ctx, boundaryCtxKey{}, true)
}

// carryBlocked has the call's result count the requests the boundary failed
// in the browser since the session's previous result (requests_blocked,
// blocked_hosts), and name the deciding layer of the latest one the call
// itself met.
func (s *session) carryBlocked(ctx context.Context) {
	inv := pipeline.FromContext(ctx)
	if inv == nil {
		return
	}
	mark := s.ws.BlockedMark()
	// A popup closed after the previous result worded the closures it saw
	// (one adopted blank whose first navigation was stopped late, say): this
	// result says so, with the host and the deciding layer.
	late := s.ws.SayPopups(0, "")
	for _, sentence := range blockedSentences(late) {
		inv.Note(sentence)
	}
	inv.Carry(func(r *surface.Refusal) {
		if len(late) > 0 && r.Layer == "" {
			r.Layer = late[len(late)-1].Layer
		}
		n, hosts := s.ws.TakeBlocked()
		r.RequestsBlocked += n
		r.BlockedHosts = append(r.BlockedHosts, hosts...)
		if len(r.BlockedHosts) > surface.BlockedHostsMax {
			r.BlockedHosts = r.BlockedHosts[:surface.BlockedHostsMax]
		}
		if mine := s.ws.BlockedSince(mark, ""); len(mine) > 0 && r.Layer == "" {
			r.Layer = mine[len(mine)-1].Layer
		}
	})
}

// otherThanPopups leaves out the popup records, which SayPopups hands out
// once each.
func otherThanPopups(recs []browser.Blocked) []browser.Blocked {
	out := recs[:0:0]
	for _, b := range recs {
		if b.Kind != browser.RequestPopup {
			out = append(out, b)
		}
	}
	return out
}

// noteBlocked says, in the call's summary, what the boundary stopped on the
// tab's pages while the call held it: a navigation (the tab stayed), a popup
// (closed, never adopted), a frame, other requests.
func noteBlocked(ctx context.Context, recs []browser.Blocked) {
	inv := pipeline.FromContext(ctx)
	if inv == nil || len(recs) == 0 {
		return
	}
	for _, s := range blockedSentences(recs) {
		inv.Note(s)
	}
}

// blockedSentences words a call's blocked requests: one sentence per kind,
// each naming the host and the deciding layer.
func blockedSentences(recs []browser.Blocked) []string {
	first := map[browser.RequestKind]browser.Blocked{}
	count := map[browser.RequestKind]int{}
	mixed := map[browser.RequestKind]bool{} // requests to more than one host
	var order []browser.RequestKind
	for _, b := range recs {
		k := b.Kind
		if k == browser.RequestSocket {
			k = browser.RequestSubresource
		}
		if count[k] == 0 {
			first[k] = b
			order = append(order, k)
		} else if first[k].Host != b.Host {
			mixed[k] = true
		}
		count[k]++
	}
	sort.Slice(order, func(i, j int) bool { return order[i] < order[j] })
	var out []string
	for _, k := range order {
		b := first[k]
		by := layerWords(b.Layer)
		switch k {
		case browser.RequestNavigation:
			out = append(out, fmt.Sprintf("The page's navigation to %s was stopped before it left the browser (%s); the tab stayed on its page.", b.Host, by))
		case browser.RequestPopup:
			what := "A popup"
			if count[k] > 1 {
				what = fmt.Sprintf("%d popups", count[k])
			}
			out = append(out, fmt.Sprintf("%s to %s %s closed before loading (%s).", what, b.Host, wasWere(count[k]), by))
		case browser.RequestFrame:
			out = append(out, fmt.Sprintf("A frame from %s was not loaded (%s).", b.Host, by))
		default:
			what, to := "A request", b.Host
			if count[k] > 1 {
				what = fmt.Sprintf("%d requests", count[k])
			}
			if mixed[k] {
				to += " and other hosts"
			}
			out = append(out, fmt.Sprintf("%s to %s %s failed in the browser (%s).", what, to, wasWere(count[k]), by))
		}
	}
	return out
}

func wasWere(n int) string {
	if n == 1 {
		return "was"
	}
	return "were"
}

func layerWords(layer string) string {
	if layer == "" {
		return "host rules"
	}
	return "the " + layer + " layer's host rules"
}

// socketRules turns the layers' host rules into WebSocket URL rules, first
// match deciding: every denial blocks; when some layer has an allow list,
// the hosts every allow list admits are allowed and every other socket is
// blocked. Chromium's interception never sees a socket handshake, so these
// rules are what the browser holds sockets to.
func socketRules(layers []governance.Layer) []browser.SocketRule {
	var rules []browser.SocketRule
	add := func(p hostPat, allow bool) {
		for _, scheme := range []string{"ws", "wss"} {
			rules = append(rules, browser.SocketRule{Pattern: p.urlPattern(scheme), Allow: allow})
		}
	}
	var allowed []hostPat
	restricted := false
	for _, l := range layers {
		for _, d := range l.DenyHosts {
			add(parsePat(d), false)
		}
		if l.Hosts == nil {
			continue
		}
		var mine []hostPat
		for _, h := range l.Hosts {
			mine = append(mine, parsePat(h))
		}
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
	add(hostPat{wild: true}, false)
	return rules
}

// hostPat is a host pattern: an exact host, or "*.suffix" (wild with
// host = suffix; an empty suffix matches every host), with an optional port.
type hostPat struct {
	host string
	wild bool
	port string
}

func parsePat(p string) hostPat {
	p = strings.ToLower(strings.TrimSpace(p))
	var hp hostPat
	if i := strings.LastIndexByte(p, ':'); i >= 0 {
		p, hp.port = p[:i], p[i+1:]
	}
	p = strings.TrimSuffix(p, ".")
	if s, ok := strings.CutPrefix(p, "*."); ok {
		hp.wild, hp.host = true, s
	} else {
		hp.host = p
	}
	return hp
}

// covers reports whether host h lies within the pattern's hosts.
func (p hostPat) covers(h string) bool {
	if !p.wild {
		return h == p.host
	}
	return p.host == "" || strings.HasSuffix(h, "."+p.host)
}

// intersect is the pattern of the hosts both admit.
func (p hostPat) intersect(q hostPat) (hostPat, bool) {
	port := p.port
	switch {
	case p.port != "" && q.port != "" && p.port != q.port:
		return hostPat{}, false
	case port == "":
		port = q.port
	}
	var out hostPat
	switch {
	case !p.wild && !q.wild:
		if p.host != q.host {
			return hostPat{}, false
		}
		out = p
	case !p.wild:
		if !q.covers(p.host) {
			return hostPat{}, false
		}
		out = p
	case !q.wild:
		if !p.covers(q.host) {
			return hostPat{}, false
		}
		out = q
	case p.covers(q.host) || p.host == q.host:
		out = q
	case q.covers(p.host):
		out = p
	default:
		return hostPat{}, false
	}
	out.port = port
	return out, true
}

func (p hostPat) urlPattern(scheme string) string {
	host := p.host
	if p.wild {
		host = "*." + p.host
		if p.host == "" {
			host = "*"
		}
	}
	port := "*"
	if p.port != "" {
		port = p.port
	}
	return scheme + "://" + host + ":" + port + "/*"
}

func containsPat(l []hostPat, p hostPat) bool {
	for _, x := range l {
		if x == p {
			return true
		}
	}
	return false
}

// frameSource lists the tab's cross-origin frames (out-of-process, and
// in-process of another origin) whose host the call may reach: a frame's
// host is checked like a page's, so a frame of any other host is neither
// perceived nor acted in.
func frameSource(t *browser.Tab) pagejs.FrameSource {
	return func(ctx context.Context) []pagejs.Frame {
		inv := pipeline.FromContext(ctx)
		var out []pagejs.Frame
		for _, f := range t.Frames(ctx) {
			// A document with no host of its own (srcdoc, data:) is held to
			// its embedder's (browser.Frame.HostURL).
			if f.HostURL == "" || inv != nil && inv.Authority != nil && inv.Authority.AdmitURL(f.HostURL) != nil {
				continue
			}
			if inv != nil {
				inv.Touched(f.HostURL) // the audit names a frame's host beside its page's
			}
			out = append(out, pagejs.Frame{Page: f.Page, FrameID: f.FrameID, URL: f.HostURL, Owner: f.Owner, Parent: f.Parent})
		}
		return out
	}
}
