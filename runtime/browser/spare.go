package browser

// Spare windows. A controlled tab gets a window of its own (createTarget), and
// a new window costs the browser more than its page: measured on headless
// Chromium 156, making a window and loading a local page in it took about
// 300 ms, while loading the same page in a window made earlier took 75 ms.
// So a workspace that opens a second tab keeps spare_windows blank windows of
// its own context ready, made in the background exactly as createTarget makes
// any (downloads set for the context, guarded before the page runs, bound,
// viewport fitted), and its next new tab takes one: the call pays only for
// its navigation, and another is made after it.
//
// A spare is bound to a slot no one can name: it is in no tab list, counts
// toward no bound and is closed with its workspace (or dropped when it
// crashes or its browser goes). Spares are made only for a headless browser
// Ghostlight launched: in a browser it attached to (the person's own, a
// remote one) or a headed one, a blank window would appear on someone's
// screen or in someone else's browser.

import (
	"context"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
)

// spares is a workspace's spare windows, guarded by its mu.
type spares struct {
	ready  []*Tab // bound to blank targets, newest last
	making int    // being made (or waiting to be) in the background
	used   int    // taken by a new tab, for tests

	// A window is made only once no call of the workspace has been at work
	// for spare_idle_ms: making one holds the browser's other commands
	// (measured: a tab listing sent behind Target.createTarget waited 50 ms).
	// A model's next call usually comes seconds later.
	busy int       // calls at work (Tab.hold, Open, Tabs)
	last time.Time // when the last one ended
}

// spareIdle is how long the workspace stays without a call at work before a
// spare is made.
const spareIdle = time.Duration(limits.SpareIdleMsMax) * time.Millisecond

// busy marks a call at work in the workspace until the returned func runs.
func (ws *Workspace) busy() func() {
	ws.mu.Lock()
	ws.spare.busy++
	ws.mu.Unlock()
	return func() {
		ws.mu.Lock()
		ws.spare.busy--
		ws.spare.last = time.Now()
		ws.mu.Unlock()
	}
}

// awaitIdle waits until no call has been at work for spareIdle; false when
// the workspace was released or ctx ended first.
func (ws *Workspace) awaitIdle(ctx context.Context) bool {
	for {
		ws.mu.Lock()
		released, busy, since := ws.released, ws.spare.busy, time.Since(ws.spare.last)
		ws.mu.Unlock()
		if released {
			return false
		}
		wait := spareIdle - since
		if busy == 0 && wait <= 0 {
			return true
		}
		if busy > 0 || wait > spareIdle {
			wait = spareIdle
		}
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return false
		}
	}
}

// keepsSpares reports whether new tabs on c may be served from spares.
func (ws *Workspace) keepsSpares(c *conn) bool {
	return limits.SpareWindowsMax > 0 && c.launched() != nil && ws.b.cfg.Headless
}

// takeSpare returns a ready spare window on c as a new slot of the workspace,
// or nil when there is none. A spare that died meanwhile is let go.
func (ws *Workspace) takeSpare(c *conn) *Tab {
	for {
		ws.mu.Lock()
		if ws.released || len(ws.spare.ready) == 0 {
			ws.mu.Unlock()
			return nil
		}
		t := ws.spare.ready[len(ws.spare.ready)-1]
		ws.spare.ready = ws.spare.ready[:len(ws.spare.ready)-1]
		bd := t.live()
		if bd == nil || bd.conn != c {
			ws.mu.Unlock()
			ws.forgetSpare(t)
			continue
		}
		ws.tabs = append(ws.tabs, t)
		ws.byHandle[t.handle] = t
		ws.spare.used++
		ws.mu.Unlock()
		return t
	}
}

// refillSpares starts making spare windows on c up to spare_windows, once the
// workspace holds at least two tabs (a session that opens tabs opens more).
func (ws *Workspace) refillSpares(c *conn) {
	if !ws.keepsSpares(c) || len(ws.liveTabs()) < 2 {
		return
	}
	ws.mu.Lock()
	n := limits.SpareWindowsMax - len(ws.spare.ready) - ws.spare.making
	if ws.released || n <= 0 {
		ws.mu.Unlock()
		return
	}
	ws.spare.making += n
	ws.mu.Unlock()
	for range n {
		go ws.makeSpare(c)
	}
}

// makeSpare makes one spare window on c once the workspace is idle, within
// spare_window_ms.
func (ws *Workspace) makeSpare(c *conn) {
	if !ws.awaitIdle(c.ctx) {
		ws.mu.Lock()
		ws.spare.making--
		ws.mu.Unlock()
		return
	}
	ctx, cancel := context.WithTimeout(c.ctx, time.Duration(limits.SpareWindowMsMax)*time.Millisecond)
	defer cancel()
	t := &Tab{ws: ws, sem: make(chan struct{}, 1)}
	t.handle = ws.b.newHandle(t)
	err := ws.createTarget(ctx, c, t)
	ws.mu.Lock()
	ws.spare.making--
	keep := err == nil && !ws.released
	if keep {
		ws.spare.ready = append(ws.spare.ready, t)
	}
	ws.mu.Unlock()
	if !keep {
		ws.closeSpare(context.WithoutCancel(ctx), c, t)
	}
}

// closeSpares closes the workspace's spare windows (it is being released).
func (ws *Workspace) closeSpares(ctx context.Context, c *conn) {
	ws.mu.Lock()
	ready := ws.spare.ready
	ws.spare.ready = nil
	ws.mu.Unlock()
	for _, t := range ready {
		ws.closeSpare(ctx, c, t)
	}
}

// closeSpare closes one spare's target and forgets its handle.
func (ws *Workspace) closeSpare(ctx context.Context, c *conn, t *Tab) {
	if bd := t.live(); bd != nil && bd.conn == c && c.alive() {
		cctx, cancel := context.WithTimeout(ctx, c.b.cfg.CloseTimeout)
		_, _ = proto.TargetCloseTarget{TargetID: bd.targetID}.Call(c.call(cctx, ""))
		cancel()
		c.targetGone(bd.targetID)
	}
	ws.forgetSpare(t)
}

// forgetSpare releases a spare's handle.
func (ws *Workspace) forgetSpare(t *Tab) {
	ws.b.mu.Lock()
	delete(ws.b.handles, t.handle)
	ws.b.mu.Unlock()
}

// SparesUsed reports how many new tabs a spare window served (tests).
func (ws *Workspace) SparesUsed() int {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	return ws.spare.used
}
