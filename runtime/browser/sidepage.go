package browser

import (
	"context"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// Controlled lists the live, attached tabs of every workspace, in workspace
// creation order unspecified. It never starts the browser and never waits on
// a page: it reads only the executor's own records.
func (b *Browser) Controlled() []*Tab {
	b.mu.Lock()
	wss := make([]*Workspace, 0, len(b.workspaces))
	for _, ws := range b.workspaces {
		wss = append(wss, ws)
	}
	b.mu.Unlock()
	var out []*Tab
	for _, ws := range wss {
		for _, t := range ws.liveTabs() {
			if t.Page() != nil {
				out = append(out, t)
			}
		}
	}
	return out
}

// SidePage attaches a DevTools session of its own to the tab's page, for a
// watcher beside the model's calls (the workbench's live view): a screencast
// there neither stops nor is stopped by one on the tab's own session (a
// browser_record), and input sent there does not wait for the tab's calls.
// The executor's records ignore the session (its events match no binding).
// detach ends it; it also ends with the tab or the browser.
//
// Only an attached tab gets one (Page is set), so its own session is known
// first and Target.attachedToTarget of the side session never becomes the
// binding's.
func (t *Tab) SidePage(ctx context.Context) (page *rod.Page, detach func(), err error) {
	bd := t.live()
	if bd == nil || t.Page() == nil {
		return nil, nil, t.goneError("side session")
	}
	res, err := proto.TargetAttachToTarget{TargetID: bd.targetID, Flatten: true}.Call(bd.conn.call(ctx, ""))
	if err != nil {
		return nil, nil, classify(ctx, "side session", t.handle, withConn(bd.conn, err))
	}
	// A clone of the tab's page on the new session (rod's PageFromSession
	// leaves the page's locks unset, so its Context would panic). Its
	// context ends with detach, the tab or the browser, which also ends
	// event subscriptions made through it. It shares the tab page's rod
	// helper caches: use it for protocol calls and events only, never for
	// rod's Eval or element helpers.
	sctx, cancel := context.WithCancel(bd.ctx)
	p := bd.page.Context(sctx)
	p.SessionID = res.SessionID
	conn := bd.conn
	detach = func() {
		cancel()
		dctx, dcancel := context.WithTimeout(conn.ctx, conn.b.cfg.CloseTimeout)
		defer dcancel()
		_ = proto.TargetDetachFromTarget{SessionID: res.SessionID}.Call(conn.call(dctx, ""))
	}
	return p, detach, nil
}

// Headful reports whether a browser this executor launches shows its windows,
// or whether it attaches to a browser the person started (connect, manual),
// whose windows are theirs: either way a tab can be brought to the front of
// a window the person sees.
func (b *Browser) Headful() bool {
	return !b.cfg.Headless || b.cfg.Startup != StartupAuto
}
