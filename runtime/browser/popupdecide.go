package browser

// A popup opened blank and sent somewhere by its opener in the same handler
// (`const w = window.open(); w.location.href = "/x"`) is adopted while it
// shows about:blank, before its first navigation is decided. The action that
// opened it would answer with the popup listed as a new tab, and a boundary
// that then closes it would be reported by the next result. So once the
// popup's first navigation is seen starting (its main frame starts navigating,
// or its guard holds the document request), the action waits, at most
// popup_decide_ms, until a web document commits there or the popup is closed,
// and reports it either way. A popup that stays blank is not waited for.

import (
	"context"
	"encoding/json"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
)

// popupDecide bounds the wait for a blank popup's first navigation.
const popupDecide = time.Duration(limits.PopupDecideMsMax) * time.Millisecond

// land marks p landed and wakes its waiters (its workspace's mu held).
func (p *pendingPopup) land() {
	p.landed = true
	if p.decided != nil {
		close(p.decided)
		p.decided = nil
	}
}

// popupNavigating records that the page of g, a popup still blank, started
// its first navigation (read loop).
func (c *conn) popupNavigating(g *guard) {
	p := c.blankPopup(g)
	if p == nil {
		return
	}
	ws := p.opener.ws
	ws.mu.Lock()
	p.navigating = true
	ws.mu.Unlock()
}

// startedNavigating notes a main-frame navigation to a web URL starting in
// bd's page: the first one of a popup still blank (read loop).
func (c *conn) startedNavigating(bd *binding, params json.RawMessage) {
	var e struct {
		FrameID proto.PageFrameID `json:"frameId"`
		URL     string            `json:"url"`
	}
	if json.Unmarshal(params, &e) != nil || string(e.FrameID) != string(bd.targetID) {
		return
	}
	if _, web := requestHost(e.URL); !web {
		return
	}
	if g := c.guardOfTarget(bd.targetID); g != nil {
		c.popupNavigating(g)
	}
}

// guardOfTarget is the guard of a page target (nil when it has none).
func (c *conn) guardOfTarget(id proto.TargetTargetID) *guard {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.guardOf[id]
}

// AwaitPopupDecided waits, while t is a popup adopted blank whose first
// navigation was seen starting, until that navigation landed, the popup was
// closed, or popup_decide_ms passed (ctx may end it sooner).
func (t *Tab) AwaitPopupDecided(ctx context.Context) {
	bd := t.live()
	if bd == nil {
		return
	}
	g := bd.conn.guardOfTarget(bd.targetID)
	if g == nil {
		return
	}
	g.mu.Lock()
	p := g.popup
	g.mu.Unlock()
	if p == nil {
		return
	}
	ws := p.opener.ws
	ws.mu.Lock()
	if p.tab != t || !p.blank || p.landed || !p.navigating {
		ws.mu.Unlock()
		return
	}
	if p.decided == nil {
		p.decided = make(chan struct{})
	}
	decided := p.decided
	ws.mu.Unlock()
	timer := time.NewTimer(popupDecide)
	defer timer.Stop()
	select {
	case <-decided:
	case <-bd.ctx.Done(): // closed (a closed blank popup lands too)
	case <-timer.C:
	case <-ctx.Done():
	}
}
