package browser

import (
	"context"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
)

// One window shows one tab. The browser tells a window's other tabs that they
// are hidden over their own channels, so right after a focus, or after a link
// opened a tab into its opener's window, a probe can still read "visible" from
// the tab now behind (two tabs then look active and a call without `tab` is
// refused as ambiguous: 1 of 10 `make test` runs under load, measured). Where
// two tabs of one window claim the front, the call waits, bounded, until the
// browser has told all but one.
const (
	windowSettle = time.Duration(limits.WindowSettleMsMax) * time.Millisecond
	// windowPoll is how soon a wait for window bounds or a viewport size looks again.
	windowPoll    = time.Duration(limits.WindowPollMsMax) * time.Millisecond
	windowRecheck = time.Duration(limits.SettleRetryMsMax) * time.Millisecond
)

// hideSiblings runs after a focus: the other tabs of the focused tab's window
// are marked hidden at once, and the focus answers when each agrees.
func (ws *Workspace) hideSiblings(ctx context.Context, focused *binding) {
	ctx, cancel := context.WithTimeout(ctx, windowSettle)
	defer cancel()
	win, ok := windowOf(ctx, focused)
	if !ok {
		return
	}
	for _, t := range ws.liveTabs() {
		bd := t.live()
		if bd == nil || bd == focused {
			continue
		}
		if w, ok := windowOf(ctx, bd); !ok || w != win {
			continue
		}
		bd.mu.Lock()
		bd.visible = false
		bd.mu.Unlock()
		for ctx.Err() == nil && visibleNow(ctx, bd) {
			pause(ctx, windowRecheck)
		}
	}
}

// settleWindows revisits tabs that claim the front of the same window until at
// most one per window does, or the bound ends. active is updated in place.
func settleWindows(ctx context.Context, live []*Tab, active []bool) {
	n := 0
	for _, a := range active {
		if a {
			n++
		}
	}
	if n < 2 {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, windowSettle)
	defer cancel()
	byWindow := map[proto.BrowserWindowID][]int{}
	for i, t := range live {
		if !active[i] {
			continue
		}
		if bd := t.live(); bd != nil {
			if w, ok := windowOf(ctx, bd); ok {
				byWindow[w] = append(byWindow[w], i)
			}
		}
	}
	for _, group := range byWindow {
		for ctx.Err() == nil && front(active, group) > 1 {
			for _, i := range group {
				if bd := live[i].live(); active[i] && bd != nil {
					active[i] = visibleNow(ctx, bd)
				}
			}
			if front(active, group) > 1 {
				pause(ctx, windowRecheck)
			}
		}
	}
}

func front(active []bool, group []int) int {
	n := 0
	for _, i := range group {
		if active[i] {
			n++
		}
	}
	return n
}

func windowOf(ctx context.Context, bd *binding) (proto.BrowserWindowID, bool) {
	w, err := proto.BrowserGetWindowForTarget{TargetID: bd.targetID}.Call(bd.conn.call(ctx, ""))
	if err != nil {
		return 0, false
	}
	return w.WindowID, true
}

// visibleNow asks the page itself; a page that cannot answer (a dialog, a hung
// renderer) keeps the last state Ghostlight knew.
func visibleNow(ctx context.Context, bd *binding) bool {
	var state string
	if err := bd.evalJSON(ctx, `JSON.stringify(document.visibilityState)`, &state); err != nil {
		bd.mu.Lock()
		defer bd.mu.Unlock()
		return bd.visible
	}
	bd.mu.Lock()
	bd.visible = state == "visible"
	bd.mu.Unlock()
	return state == "visible"
}

func pause(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}
