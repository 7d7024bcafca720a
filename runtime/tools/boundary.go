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
	"github.com/ghostlight-dev/ghostlight/runtime/language"
	"net/netip"
	"slices"

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
		// Every address a name resolves to, at the policy proxy, in every
		// mode (hosts.addresses and address denials: governance/addresses.go).
		AdmitAddr: func(ip netip.Addr) (bool, string) {
			if r := a.AdmitAddr(ip); r != nil {
				return false, r.Layer
			}
			return true, ""
		},
		All: a.AllRequests(),
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
	b.CeilingSockets = executorSocketRules(governance.SelfSocketRules())
	b.Sockets = executorSocketRules(a.RequestSocketRules())
	return b
}

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
		for _, h := range hosts {
			// Named as governance canonicalizes them: one host, one name.
			if h = governance.CanonicalHostPort(h); !slices.Contains(r.BlockedHosts, h) {
				r.BlockedHosts = append(r.BlockedHosts, h)
			}
		}
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

// blockedSentences words a call's blocked requests (language.BlockedSentences),
// each host named as governance canonicalizes it.
func blockedSentences(recs []browser.Blocked) []string {
	out := make([]language.Blocked, 0, len(recs))
	for _, b := range recs {
		k := language.BlockedRequest // a subresource or a WebSocket handshake
		switch b.Kind {
		case browser.RequestNavigation:
			k = language.BlockedNavigation
		case browser.RequestFrame:
			k = language.BlockedFrame
		case browser.RequestPopup:
			k = language.BlockedPopup
		}
		out = append(out, language.Blocked{Kind: k, Host: governance.CanonicalHostPort(b.Host), Layer: b.Layer})
	}
	return language.BlockedSentences(out)
}

// executorSocketRules are governance's WebSocket rules in the executor's type.
func executorSocketRules(rules []governance.SocketRule) []browser.SocketRule {
	var out []browser.SocketRule
	for _, r := range rules {
		out = append(out, browser.SocketRule{Pattern: r.Pattern, Allow: r.Allow})
	}
	return out
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
