package boundary

// What the boundary stopped, in the call's result: the facts
// (requests_blocked, blocked_hosts, the deciding layer) and one sentence a
// kind.

import (
	"context"
	"slices"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/governance"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
)

// CarryBlocked has the call's result count the requests the boundary failed
// in ws's browser since its previous result (requests_blocked,
// blocked_hosts), and name the deciding layer of the latest one the call
// itself met.
func CarryBlocked(ws *browser.Workspace, inv *pipeline.Invocation) {
	if inv == nil {
		return
	}
	mark := ws.BlockedMark()
	// A popup closed after the previous result worded the closures it saw
	// (one adopted blank whose first navigation was stopped late, say): this
	// result says so, with the host and the deciding layer.
	late := ws.SayPopups(0, "")
	for _, sentence := range blockedSentences(late) {
		inv.Note(sentence)
	}
	inv.Carry(func(r *surface.Refusal) {
		if len(late) > 0 && r.Layer == "" {
			r.Layer = late[len(late)-1].Layer
		}
		n, hosts := ws.TakeBlocked()
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
		if mine := ws.BlockedSince(mark, ""); len(mine) > 0 && r.Layer == "" {
			r.Layer = mine[len(mine)-1].Layer
		}
	})
}

// NoteHeld says, in the call's summary, what the boundary stopped on tab's
// pages since mark (ws.BlockedMark, taken before the call held it): a
// navigation (the tab stayed), a popup (closed, never adopted), a frame,
// other requests. It returns the popups it said were closed.
func NoteHeld(ctx context.Context, ws *browser.Workspace, mark uint64, tab string) []browser.Blocked {
	popups := ws.SayPopups(mark, tab)
	noteBlocked(ctx, append(otherThanPopups(ws.BlockedSince(mark, tab)), popups...))
	return popups
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

// noteBlocked says the blocked requests in the call's summary.
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
