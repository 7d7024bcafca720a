package browser

// Per-session browser contexts. Under IsolationSession every workspace's tabs
// live in a browser context of its own (Target.createBrowserContext: its own
// cookie jar, storage, cache and permissions), so two sessions logged in as
// different users never meet. Popups a page opens stay in its context (the
// browser puts them there); the host boundary is unaffected, because the
// browser session's auto-attach reaches targets of every context (attach.go).
// Releasing the workspace disposes its context, which closes whatever it
// still holds. IsolationShared keeps the browser's default context: one
// profile, for one person's desktop use.

import (
	"context"

	"github.com/go-rod/rod/lib/proto"

	"github.com/ghostlight-dev/ghostlight/runtime/browser/netwall"
)

// Isolation modes (policy browser.isolation).
const (
	IsolationSession = "session" // each workspace its own browser context
	IsolationShared  = "shared"  // every workspace in the browser's default context
)

// wsContext is one workspace's browser context on one connection.
type wsContext struct {
	c    *conn
	ws   *Workspace
	id   proto.BrowserBrowserContextID
	done chan struct{} // closed once created (or failed)
	err  error
	// wall is the context's policy proxy (wall.go), nil when the browser
	// cannot reach Ghostlight's loopback.
	wall *netwall.Proxy
}

// isolated reports whether the workspace has a browser context of its own
// (fixed when the workspace is made, from Config.Isolation).
func (ws *Workspace) isolated() bool { return ws.isolation != IsolationShared }

// browserContext is the context the workspace's new tabs are created in on c:
// "" (the default context) under shared isolation, else the workspace's own,
// created on first use on each connection. Concurrent callers share one
// creation; the creation is bounded by CloseTimeout, not by the caller, so a
// caller that gives up leaves no context half-made, and a failed one is tried
// again by the next caller.
func (ws *Workspace) browserContext(ctx context.Context, c *conn) (proto.BrowserBrowserContextID, error) {
	if !ws.isolated() {
		return "", nil
	}
	ws.mu.Lock()
	if ws.released {
		ws.mu.Unlock()
		return "", &Error{Kind: KindClosed, Op: "open"}
	}
	bc := ws.bctx
	if bc == nil || bc.c != c || bc.failed() {
		bc = &wsContext{c: c, ws: ws, done: make(chan struct{})}
		ws.bctx = bc
		go bc.create()
	}
	ws.mu.Unlock()
	select {
	case <-bc.done:
	case <-ctx.Done():
		return "", classify(ctx, "open", "", context.Cause(ctx))
	}
	if bc.err != nil {
		return "", classify(ctx, "open", "", withConn(c, bc.err))
	}
	return bc.id, nil
}

func (bc *wsContext) failed() bool {
	select {
	case <-bc.done:
		return bc.err != nil
	default:
		return false
	}
}

// create makes the context. disposeOnDetach: when the connection ends (a
// remote browser Ghostlight loses, a server that dies), the browser disposes
// the context itself, so nothing of a session outlives its server.
func (bc *wsContext) create() {
	defer close(bc.done)
	ctx, cancel := context.WithTimeout(bc.c.ctx, bc.c.b.cfg.CloseTimeout)
	defer cancel()
	req := proto.TargetCreateBrowserContext{DisposeOnDetach: true}
	if bc.c.routable() && !bc.c.b.cfg.noWall {
		w, err := bc.ws.startWall()
		if err != nil {
			bc.err = err
			return
		}
		bc.wall = w
		bc.c.keepWall(w)
		req.ProxyServer, req.ProxyBypassList = w.URL(), proxyBypass
	}
	res, err := req.Call(bc.c.call(ctx, ""))
	if err != nil {
		if bc.wall != nil {
			_ = bc.wall.Close()
		}
		bc.err = err
		return
	}
	bc.id = res.BrowserContextID
}

// ContextID is the workspace's own browser context on the live connection, ""
// under shared isolation or before its first tab (for tests and for per-context
// browser settings).
func (ws *Workspace) ContextID() string {
	ws.mu.Lock()
	bc := ws.bctx
	ws.mu.Unlock()
	if bc == nil || bc.failed() {
		return ""
	}
	select {
	case <-bc.done:
	default:
		return ""
	}
	if !bc.c.alive() {
		return ""
	}
	return string(bc.id)
}

// mayAdopt reports whether a page no workspace owns may become one of this
// workspace's tabs: under session isolation only a page of its own context
// (the person's tabs and other sessions' contexts are other cookie jars).
func (ws *Workspace) mayAdopt(ti *proto.TargetTargetInfo) bool {
	if !ws.isolated() {
		return true
	}
	own := ws.ContextID()
	return own != "" && string(ti.BrowserContextID) == own
}

// disposeContext disposes the released workspace's context (closing every
// page still in it), after a creation still in flight has finished.
func (ws *Workspace) disposeContext(ctx context.Context, c *conn) {
	ws.mu.Lock()
	bc := ws.bctx
	ws.bctx = nil
	ws.mu.Unlock()
	if bc == nil || bc.c != c {
		return // none, or one of a connection that ended (disposed on detach)
	}
	select {
	case <-bc.done:
	case <-ctx.Done():
		return
	}
	if bc.err != nil || bc.id == "" || !c.alive() {
		return
	}
	// Dispose only once the browser lists none of the context's pages:
	// disposing while a closed tab's window was still going crashed
	// Chromium 156 when a browser shortcut's bubble was open there
	// (Control+Shift+A, then a release: 12 of 14 releases, measured).
	// Bounded: a page the browser keeps listing (a hung one) must not hold
	// the release forever (a release under context.Background() did).
	wctx, cancel := context.WithTimeout(ctx, windowSettle)
	for wctx.Err() == nil && contextHasPages(wctx, c, bc.id) {
		pause(wctx, windowRecheck)
	}
	cancel()
	_ = proto.TargetDisposeBrowserContext{BrowserContextID: bc.id}.Call(c.call(ctx, ""))
	if bc.wall != nil { // after the context: its last pages' requests met a proxy that refused them
		_ = bc.wall.Close()
	}
}

// contextHasPages says whether the browser still lists a target of id.
func contextHasPages(ctx context.Context, c *conn, id proto.BrowserBrowserContextID) bool {
	res, err := proto.TargetGetTargets{}.Call(c.call(ctx, ""))
	if err != nil {
		return false
	}
	for _, ti := range res.TargetInfos {
		if ti.BrowserContextID == id {
			return true
		}
	}
	return false
}
