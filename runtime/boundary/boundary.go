package boundary

// The host boundary's wiring: the executor holds every request a governed
// tab makes and asks a plain function; this file builds that function from
// the call's authority.

import (
	"context"
	"net/netip"

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

// Governed returns ctx carrying the call's boundary for every tab the call
// holds, and its download policy (once per invocation; ctx as is outside
// one).
func Governed(ctx context.Context) context.Context {
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

// executorSocketRules are governance's WebSocket rules in the executor's type.
func executorSocketRules(rules []governance.SocketRule) []browser.SocketRule {
	var out []browser.SocketRule
	for _, r := range rules {
		out = append(out, browser.SocketRule{Pattern: r.Pattern, Allow: r.Allow})
	}
	return out
}

// FrameSource lists the tab's cross-origin frames (out-of-process, and
// in-process of another origin) whose host the call may reach: a frame's
// host is checked like a page's, so a frame of any other host is neither
// perceived nor acted in.
func FrameSource(t *browser.Tab) pagejs.FrameSource {
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
