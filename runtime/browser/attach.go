package browser

// Guard sessions: the DevTools sessions the host boundary holds requests on.
//
// The browser session auto-attaches to every page target with
// waitForDebuggerOnStart (dial), so a page is paused before it sends its
// first request; each page's guard session auto-attaches the same way to its
// frames (out-of-process iframes) and workers. A guard enables Fetch
// interception (documents, or every request when the tab's boundary holds
// all) and only then lets its target run (Runtime.runIfWaitingForDebugger).
// A popup's first request is therefore held like any other. Guards are
// separate from the session rod drives the page on (binding.attach), so
// nothing the page-side code enables or disables can switch interception off.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// guard is one auto-attached session: a page's, a frame's or a worker's.
type guard struct {
	session proto.TargetSessionID
	target  proto.TargetTargetID
	typ     string // "page", "iframe", "worker", …
	parent  *guard // nil for pages

	ready   chan struct{} // closed once set up and let run
	applyMu sync.Mutex    // one apply at a time, computed from the latest boundary

	mu    sync.Mutex
	popup *pendingPopup // a page a controlled tab opened, until adopted or closed
	url   string        // the target's URL as last announced
	key   string        // what is applied: "" none, "nav", or the boundary's socketKey
	setUp bool          // interception is enabled (a page of no workspace has none)
	held  bool          // a shared or service worker kept paused under "all"
	page  *rod.Page     // a rod page on the session, for frame perception (frames.go)
}

// pendingPopup is a page one of the workspace's tabs opened. It is adopted
// when its first document commits, and closed (never adopted) when the
// boundary denies its first request.
type pendingPopup struct {
	opener  *Tab
	gesture bool
	done    bool // adopted or closed
	closed  bool // refused before it ran: its requests fail and it is closed
	// A popup adopted while it showed its initial blank document (window.open()
	// and then a location set, or about:blank first) is still the popup until
	// a web document commits in it: a first navigation the boundary denies,
	// at any redirect hop, closes it like a popup to that host.
	tab    *Tab // the slot it was adopted into
	blank  bool // adopted before any web document committed
	landed bool // a web document committed, or it was closed
	// navigating: a first navigation of the blank popup was seen starting
	// (popupdecide.go); decided is closed once it landed or was closed.
	navigating bool
	decided    chan struct{}
}

func (g *guard) root() *guard {
	r := g
	for r.parent != nil {
		r = r.parent
	}
	return r
}

// autoAttachParams attaches to related targets paused, in flat mode.
var autoAttachParams = map[string]any{"autoAttach": true, "waitForDebuggerOnStart": true, "flatten": true}

// startGuards turns on the browser-level auto-attach to page targets. Pages
// that exist already are attached (not paused) before the reply.
func (c *conn) startGuards(ctx context.Context) error {
	p := map[string]any{"autoAttach": true, "waitForDebuggerOnStart": true, "flatten": true,
		"filter": []map[string]any{{"type": "page"}, {"type": "shared_worker"}, {"type": "service_worker"}}}
	_, err := c.rod.Call(ctx, "", "Target.setAutoAttach", p)
	return err
}

// onAttached records a guard session. It runs in the read loop; the setup
// runs in its own goroutine, and the target waits for it.
func (c *conn) onAttached(parentSession proto.TargetSessionID, e *attachedEvent) bool {
	c.mu.Lock()
	if c.dead {
		c.mu.Unlock()
		return false
	}
	if c.guards == nil {
		c.guards = map[proto.TargetSessionID]*guard{}
		c.guardOf = map[proto.TargetTargetID]*guard{}
	}
	var parent *guard
	if parentSession != "" {
		parent = c.guards[parentSession]
		if parent == nil { // a child of a session that is not a guard (rod's)
			c.mu.Unlock()
			return false
		}
	} else if c.guardOf[e.TargetInfo.TargetID] != nil {
		// The target has its guard: this is another client's (or rod's own)
		// attach of a page already watched.
		c.mu.Unlock()
		return false
	}
	g := &guard{session: e.SessionID, target: e.TargetInfo.TargetID, typ: e.TargetInfo.Type, parent: parent, url: e.TargetInfo.URL, ready: make(chan struct{})}
	c.guards[g.session] = g
	c.guardOf[g.target] = g
	if c.guardWake != nil {
		close(c.guardWake)
	}
	c.guardWake = make(chan struct{})
	governed := parent != nil || c.byTarget[g.target] != nil || c.creating > 0 || sharedWorker(g.typ)
	var opener *binding
	if parent == nil && e.TargetInfo.OpenerID != "" {
		opener = c.byTarget[e.TargetInfo.OpenerID]
	}
	c.mu.Unlock()
	if opener != nil {
		gesture := opener.tab.takeWindowOpen()
		g.popup = &pendingPopup{opener: opener.tab, gesture: gesture}
		if !opener.tab.ws.admitPopup(gesture) {
			// Past session_tabs, or without a gesture under that policy
			// (counted by admitPopup): it is let run with every document
			// request failed, and closed (closing a target that never ran
			// stalls its opener, measured).
			g.popup.done, g.popup.closed = true, true
			opener.tab.refusedOpen()
			c.forget(g.target)
		}
		governed = true
	}
	waiting := e.WaitingForDebugger
	go c.setupGuard(g, governed, waiting)
	return true
}

type attachedEvent struct {
	SessionID  proto.TargetSessionID `json:"sessionId"`
	TargetInfo struct {
		TargetID proto.TargetTargetID `json:"targetId"`
		Type     string               `json:"type"`
		URL      string               `json:"url"`
		OpenerID proto.TargetTargetID `json:"openerId"`
	} `json:"targetInfo"`
	WaitingForDebugger bool `json:"waitingForDebugger"`
}

// setupGuard enables what the target's boundary needs and lets it run.
func (c *conn) setupGuard(g *guard, governed, waiting bool) {
	ctx, cancel := context.WithTimeout(c.ctx, c.b.cfg.CloseTimeout)
	defer cancel()
	defer close(g.ready)
	run := func() {
		if waiting {
			_, _ = c.rod.Call(ctx, string(g.session), "Runtime.runIfWaitingForDebugger", nil)
		}
	}
	c.mu.Lock()
	created := g.parent == nil && g.typ == "page" && g.popup == nil && c.creating > 0
	c.mu.Unlock()
	switch {
	case sharedWorker(g.typ) && c.workerBoundary().All:
		// Under "all" a shared or service worker is held paused: its own
		// requests escape its interception now and then (measured: the fetch a
		// worker sends as it starts goes out before Fetch.enable takes effect),
		// so it does not run until the boundary holds documents only.
		c.applyGuard(ctx, g, true)
		g.mu.Lock()
		g.held = waiting
		g.mu.Unlock()
	case created:
		// A blank tab Ghostlight is creating sends nothing until its first
		// navigation, which waits for this guard (awaitGuard): it may run while
		// interception is being enabled.
		var wg sync.WaitGroup
		wg.Go(func() { c.applyGuard(ctx, g, true) })
		wg.Go(run)
		wg.Wait()
	case governed:
		c.applyGuard(ctx, g, true)
		run()
	default:
		run()
	}
	if g.popup != nil && g.popup.closed {
		_, _ = proto.TargetCloseTarget{TargetID: g.target}.Call(c.call(ctx, ""))
	}
}

// awaitGuard waits until the page target's guard is set up: a tab Ghostlight
// created sends no request before its interception is in place.
func (c *conn) awaitGuard(ctx context.Context, id proto.TargetTargetID) error {
	for {
		c.mu.Lock()
		g := c.guardOf[id]
		if c.guardWake == nil {
			c.guardWake = make(chan struct{})
		}
		wake, dead := c.guardWake, c.dead
		c.mu.Unlock()
		if dead {
			return ErrBrowserGone
		}
		if g != nil {
			select {
			case <-g.ready:
				return nil
			case <-ctx.Done():
				return context.Cause(ctx)
			}
		}
		select {
		case <-wake:
		case <-ctx.Done():
			return context.Cause(ctx)
		case <-c.ctx.Done():
			return ErrBrowserGone
		}
	}
}

// applyGuard brings one guard to its owner tab's boundary: Fetch patterns,
// WebSocket rules, and (first time) the auto-attach to its own children.
func (c *conn) applyGuard(ctx context.Context, g *guard, first bool) {
	g.applyMu.Lock()
	defer g.applyMu.Unlock()
	b := c.boundaryOf(g)
	key := b.heldKey()
	g.mu.Lock()
	if g.key == key && !first {
		g.mu.Unlock()
		return
	}
	wasAll := netOn(g.key)
	g.key = key
	g.setUp = true
	g.mu.Unlock()
	s := string(g.session)
	// The commands are independent: sent together, each a round trip of its own.
	var wg sync.WaitGroup
	if g.typ != "worker" { // dedicated workers' requests are held on their page's session
		patterns := append([]map[string]any{{"urlPattern": "*", "resourceType": "Document", "requestStage": "Request"}}, b.ceilingPatterns()...)
		if b.All {
			patterns = []map[string]any{{"urlPattern": "*", "requestStage": "Request"}}
		}
		wg.Go(func() { _, _ = c.rod.Call(ctx, s, "Fetch.enable", map[string]any{"patterns": patterns}) })
	}
	wg.Go(func() {
		switch {
		case netOn(key):
			// WebSockets never reach Fetch: the browser holds them by URL rules
			// (the ceiling's in every mode, selfceiling.go; the layers' under
			// "all"). Network must be on for the rules to apply (measured), with
			// nothing buffered.
			zero := 0
			_, _ = c.rod.Call(ctx, s, "Network.enable", proto.NetworkEnable{MaxTotalBufferSize: &zero, MaxResourceBufferSize: &zero, MaxPostDataSize: &zero})
			socks := b.socketRules()
			rules := make([]map[string]any, 0, len(socks))
			for _, r := range socks {
				rules = append(rules, map[string]any{"urlPattern": r.Pattern, "offline": !r.Allow, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
			}
			_, _ = c.rod.Call(ctx, s, "Network.emulateNetworkConditionsByRule", map[string]any{"matchedNetworkConditions": rules})
		case wasAll:
			_, _ = c.rod.Call(ctx, s, "Network.emulateNetworkConditionsByRule", map[string]any{"matchedNetworkConditions": []map[string]any{}})
			_, _ = c.rod.Call(ctx, s, "Network.disable", nil)
		}
	})
	if first && (g.typ == "page" || g.typ == "iframe") {
		wg.Go(func() { _, _ = c.rod.Call(ctx, s, "Target.setAutoAttach", autoAttachParams) })
	}
	wg.Wait()
}

// applyTab brings every guard of the tab's target to its current boundary.
func (c *conn) applyTab(ctx context.Context, bd *binding) {
	for _, g := range c.guardsOf(bd.targetID) {
		g.mu.Lock()
		up := g.setUp
		g.mu.Unlock()
		c.applyGuard(ctx, g, !up)
	}
}

// guardsOf lists the guards whose root is the page target id.
func (c *conn) guardsOf(id proto.TargetTargetID) []*guard {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []*guard
	for _, g := range c.guards {
		if g.root().target == id {
			out = append(out, g)
		}
	}
	return out
}

// ownerOf is the tab whose boundary decides the guard's requests: the bound
// tab of its page, else the opener of a pending popup (nil: not governed).
func (c *conn) ownerOf(g *guard) (*Tab, *binding, *pendingPopup) {
	r := g.root()
	c.mu.Lock()
	bd := c.byTarget[r.target]
	c.mu.Unlock()
	if bd != nil {
		return bd.tab, bd, nil
	}
	r.mu.Lock()
	p := r.popup
	r.mu.Unlock()
	if p != nil && (!p.done || p.closed) {
		return p.opener, nil, p
	}
	return nil, nil, nil
}

func (c *conn) boundaryOf(g *guard) Boundary {
	if t, _, _ := c.ownerOf(g); t != nil {
		return t.bound.now()
	}
	if sharedWorker(g.root().typ) {
		return c.workerBoundary()
	}
	return Boundary{}
}

// sharedWorker: a shared or service worker belongs to an origin, not to a
// tab; no call governs it.
func sharedWorker(typ string) bool { return typ == "shared_worker" || typ == "service_worker" }

// workerBoundary decides shared and service workers: the configured layers
// (the between-calls boundary of the latest call), while some workspace is
// governed at all; nil before any call (nothing is governed yet).
func (c *conn) workerBoundary() Boundary {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.between
}

// noteBetween records the configured boundary the latest call brought, for
// shared and service workers; a change of what is held is applied to them.
func (c *conn) noteBetween(ctx context.Context, b Boundary) {
	c.mu.Lock()
	changed := c.between.socketKey() != b.socketKey() || c.between.Admit == nil
	c.between = b
	var ws []*guard
	if changed {
		for _, g := range c.guards {
			if g.parent == nil && sharedWorker(g.typ) {
				ws = append(ws, g)
			}
		}
	}
	c.mu.Unlock()
	for _, g := range ws {
		c.applyGuard(ctx, g, false)
		g.mu.Lock()
		release := g.held && !b.All
		if release {
			g.held = false
		}
		g.mu.Unlock()
		if release { // documents only again: the worker may run
			_, _ = c.rod.Call(ctx, string(g.session), "Runtime.runIfWaitingForDebugger", nil)
		}
	}
}

// guardBound is called when a page target becomes a tab: a page attached
// before any workspace owned it (a connected browser's tab) gets its
// interception now.
func (c *conn) guardBound(ctx context.Context, id proto.TargetTargetID) {
	c.mu.Lock()
	g := c.guardOf[id]
	c.mu.Unlock()
	if g == nil {
		return
	}
	g.mu.Lock()
	up := g.setUp
	g.mu.Unlock()
	if !up {
		c.applyGuard(ctx, g, true)
	}
}

// dropGuard forgets a detached session and its children.
func (c *conn) dropGuard(session proto.TargetSessionID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	g := c.guards[session]
	if g == nil {
		return
	}
	delete(c.guards, session)
	if c.guardOf[g.target] == g {
		delete(c.guardOf, g.target)
	}
	for s, o := range c.guards {
		for p := o.parent; p != nil; p = p.parent {
			if p == g {
				delete(c.guards, s)
				if c.guardOf[o.target] == o {
					delete(c.guardOf, o.target)
				}
				break
			}
		}
	}
}

func (c *conn) guardBySession(s proto.TargetSessionID) *guard {
	if s == "" {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.guards[s]
}

// pausedRequest is the part of Fetch.requestPaused the boundary reads.
type pausedRequest struct {
	RequestID string `json:"requestId"`
	Request   struct {
		URL string `json:"url"`
	} `json:"request"`
	FrameID      proto.PageFrameID `json:"frameId"`
	ResourceType string            `json:"resourceType"`
	NetworkID    string            `json:"networkId"`
}

// onPaused decides one held request in the read loop and answers it from a
// goroutine (the read loop never waits for the browser).
func (c *conn) onPaused(g *guard, params json.RawMessage) {
	var e pausedRequest
	if json.Unmarshal(params, &e) != nil || e.RequestID == "" {
		return
	}
	allowed, rec, popup := c.judge(g, &e)
	reason := "BlockedByClient"
	if rec.Kind == RequestNavigation || rec.Kind == RequestPopup {
		// An aborted navigation commits no error page: the tab stays where it was.
		reason = "Aborted"
	}
	session := string(g.session)
	go func() {
		ctx, cancel := context.WithTimeout(c.ctx, c.b.cfg.CloseTimeout)
		defer cancel()
		if allowed {
			_, _ = c.rod.Call(ctx, session, "Fetch.continueRequest", map[string]any{"requestId": e.RequestID})
			return
		}
		_, _ = c.rod.Call(ctx, session, "Fetch.failRequest", map[string]any{"requestId": e.RequestID, "errorReason": reason})
		if rec.Kind == RequestNavigation && popup == nil {
			if _, bd, _ := c.ownerOf(g); bd != nil {
				bd.followAbortedLoad(c.ctx) // abortedload.go
			}
		}
		if popup != nil {
			_, _ = proto.TargetCloseTarget{TargetID: g.root().target}.Call(c.call(ctx, ""))
		}
	}()
}

// judge is the boundary's decision for one held request: what kind it is,
// whose boundary decides it, and the record of a denial (recorded here, in
// the read loop, before the browser can report the request failed).
func (c *conn) judge(g *guard, e *pausedRequest) (allowed bool, rec Blocked, popup *pendingPopup) {
	t, bd, p := c.ownerOf(g)
	if p != nil && p.closed {
		return false, Blocked{Kind: RequestPopup}, nil // a refused popup loads nothing
	}
	host, governed := requestHost(e.Request.URL)
	if !governed {
		return true, rec, nil
	}
	if t == nil {
		if !sharedWorker(g.root().typ) {
			return true, rec, nil
		}
		b := c.workerBoundary()
		if !b.All {
			if ok, layer := b.ceiling(host); !ok {
				c.b.recordWorkerBlock(g.root().url, Blocked{Host: host, Layer: layer, Kind: RequestSubresource})
				return false, rec, nil
			}
			return true, rec, nil
		}
		if ok, layer := b.admit(host, RequestSubresource); !ok {
			c.b.recordWorkerBlock(g.root().url, Blocked{Host: host, Layer: layer, Kind: RequestSubresource})
			return false, rec, nil
		}
		return true, rec, nil
	}
	b := t.bound.now()
	kind := RequestSubresource
	if e.ResourceType == "Document" {
		kind = RequestFrame
		if g.parent == nil && e.FrameID == proto.PageFrameID(g.target) {
			kind = RequestNavigation
			if p != nil {
				kind = RequestPopup
			}
		}
	} else if !b.All {
		// Documents only: a subresource is held for the ceiling's ports alone
		// (or while the boundary switched back to documents only).
		if ok, layer := b.ceiling(host); !ok {
			rec = t.ws.blocked.add(Blocked{Tab: t.handle, Host: host, Layer: layer, Kind: kind, loader: e.NetworkID})
			return false, rec, nil
		}
		return true, rec, nil
	}
	if kind == RequestNavigation && bd != nil {
		c.popupNavigating(g) // its first navigation's request: the opener's action waits for its fate
	}
	ok, layer := b.admit(host, kind)
	if ok {
		return true, rec, nil
	}
	if kind == RequestNavigation && bd != nil {
		if bp := c.blankPopup(g); bp != nil && bp.opener.ws.closeBlankPopup(bp) {
			// Still its opener's popup: closed and reported like one, never
			// left behind as an adopted blank tab.
			// The popup is gone before the record exists, so a result that
			// reads the record also sees the popup closed (ClosedAsPopup).
			bp.opener.removeOpened(bp.tab)
			if gone := c.forget(g.target); gone != nil {
				gone.markGone(errPopupClosed)
			}
			rec = bp.opener.ws.blocked.add(Blocked{Tab: bp.opener.handle, Host: host, Layer: layer, Kind: RequestPopup, Popup: bp.tab.handle, loader: e.NetworkID})
			return false, rec, bp
		}
	}
	rec = t.ws.blocked.add(Blocked{Tab: t.handle, Host: host, Layer: layer, Kind: kind, loader: e.NetworkID})
	switch {
	case kind == RequestNavigation && bd != nil:
		bd.noteBlocked(rec)
	case kind == RequestPopup:
		if p.opener.ws.refusePopup(p) {
			c.forget(g.root().target) // never adopted, even while still listed
		}
		return false, rec, p
	}
	return false, rec, nil
}

// onGuardEvent handles events of guard sessions (read loop).
func (c *conn) onGuardEvent(g *guard, method string, params json.RawMessage) {
	switch method {
	case "Fetch.requestPaused":
		c.onPaused(g, params)
	case "Network.webSocketCreated":
		var e struct {
			URL string `json:"url"`
		}
		if json.Unmarshal(params, &e) != nil {
			return
		}
		t, _, _ := c.ownerOf(g)
		b := c.boundaryOf(g)
		host, ok := requestHost(e.URL)
		if !ok || !b.All {
			return
		}
		if allowed, layer := b.admit(host, RequestSocket); !allowed {
			if t != nil {
				t.ws.blocked.add(Blocked{Tab: t.handle, Host: host, Layer: layer, Kind: RequestSocket})
			} else {
				c.b.recordWorkerBlock(g.root().url, Blocked{Host: host, Layer: layer, Kind: RequestSocket})
			}
		}
	}
}

// adoptPopup makes a committed popup a controlled tab of its opener's
// workspace (read loop).
func (c *conn) adoptPopup(g *guard, p *pendingPopup, blank bool) {
	opener := p.opener
	ws := opener.ws
	ws.mu.Lock()
	if p.done {
		ws.mu.Unlock()
		return
	}
	p.done = true
	p.blank = blank
	ws.mu.Unlock()
	c.mu.Lock()
	known := c.byTarget[g.target] != nil
	c.mu.Unlock()
	if known {
		return
	}
	if !ws.admitPopup(p.gesture) {
		opener.refusedOpen()
		c.forget(g.target) // never adopted, even while still listed
		c.closeAsync(g.target)
		return
	}
	t := ws.newSlot()
	if t == nil { // workspace released
		return
	}
	t.bound.follow(&opener.bound) // its opener's boundary, until a call governs it
	ws.mu.Lock()
	p.tab = t
	ws.mu.Unlock()
	if _, err := c.bind(t, g.target, false); err != nil {
		ws.dropSlot(t)
		return
	}
	opener.addOpened(t)
}

// refusePopup marks a pending popup closed by the boundary (read loop): it is
// counted with the popups closed at once, and its opener's settling learns it
// will not be adopted. False when it was settled already.
func (ws *Workspace) refusePopup(p *pendingPopup) bool {
	ws.mu.Lock()
	if p.done {
		ws.mu.Unlock()
		return false
	}
	p.done = true
	ws.popupsClosed++
	ws.mu.Unlock()
	p.opener.refusedOpen()
	return true
}

// noteGuardURL keeps a guarded target's URL as the browser announces it
// (read loop): a frame's host is checked like a page's.
func (c *conn) noteGuardURL(id proto.TargetTargetID, u string) {
	c.mu.Lock()
	g := c.guardOf[id]
	c.mu.Unlock()
	if g == nil {
		return
	}
	g.mu.Lock()
	g.url = boundURL(u)
	p := g.popup
	g.mu.Unlock()
	// A popup is adopted once it shows a document its opener's boundary
	// admits (its own, or about:blank); one the boundary stopped is closed
	// by judge and never shows one. (Page events would need the Page domain,
	// whose enabling waits for a paused target to run.)
	if p == nil || u == "" || g.parent != nil {
		return
	}
	_, web := requestHost(u)
	if p.done {
		if web { // a web document committed in a popup adopted blank
			ws := p.opener.ws
			ws.mu.Lock()
			p.land()
			ws.mu.Unlock()
		}
		return
	}
	if host, ok := requestHost(u); ok {
		if allowed, _ := p.opener.bound.now().admit(host, RequestPopup); !allowed {
			return
		}
	} else if u != "about:blank" && !strings.HasPrefix(u, "chrome-error:") {
		return
	}
	c.adoptPopup(g, p, !web)
}

// blankPopup is the popup g's page still is: adopted while blank, no web
// document committed since (nil otherwise). Only a page's own main frame.
func (c *conn) blankPopup(g *guard) *pendingPopup {
	if g.parent != nil {
		return nil
	}
	g.mu.Lock()
	p := g.popup
	g.mu.Unlock()
	if p == nil {
		return nil
	}
	ws := p.opener.ws
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if !p.done || !p.blank || p.landed || p.tab == nil {
		return nil
	}
	if !p.tab.bound.following() {
		return nil // a call governs the tab now: its navigations are its own
	}
	return p
}

// errPopupClosed is the gone cause of a popup the boundary closed after it
// was adopted blank (it is ErrTabClosed to every caller).
var errPopupClosed = fmt.Errorf("%w: a popup the host boundary closed", ErrTabClosed)

// ClosedAsPopup reports that the tab was a popup adopted blank and then
// closed by the host boundary: results that listed it as opened leave it out.
func (t *Tab) ClosedAsPopup() bool {
	bd := t.binding()
	return bd != nil && errors.Is(bd.goneErr(), errPopupClosed)
}

// closeBlankPopup settles a blank popup the boundary closes (read loop): it
// is counted with the popups closed. False when it had settled already.
func (ws *Workspace) closeBlankPopup(p *pendingPopup) bool {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if p.landed {
		return false
	}
	p.land()
	ws.popupsClosed++
	return true
}

// recordWorkerBlock counts a shared or service worker's blocked request in
// every workspace with a tab on the worker's origin (the sessions whose
// pages the worker serves).
func (b *Browser) recordWorkerBlock(workerURL string, rec Blocked) {
	origin := originKey(workerURL)
	b.mu.Lock()
	wss := make([]*Workspace, 0, len(b.workspaces))
	for _, ws := range b.workspaces {
		wss = append(wss, ws)
	}
	b.mu.Unlock()
	for _, ws := range wss {
		for _, t := range ws.liveTabs() {
			if origin != "" && originKey(t.URL()) == origin {
				r := rec
				r.Tab = t.handle
				ws.blocked.add(r)
				break
			}
		}
	}
}

// originKey is a URL's scheme://host[:port] ("" when it has none).
func originKey(raw string) string {
	u, err := url.Parse(strings.TrimPrefix(raw, "blob:"))
	if err != nil || u.Host == "" {
		return ""
	}
	return strings.ToLower(u.Scheme + "://" + u.Host)
}

// unguard turns interception off on a page a workspace lets go of without
// closing it (a connected browser's tab): its requests are no longer held.
func (c *conn) unguard(ctx context.Context, id proto.TargetTargetID) {
	for _, g := range c.guardsOf(id) {
		g.applyMu.Lock()
		g.mu.Lock()
		up, all := g.setUp, netOn(g.key)
		g.setUp, g.key = false, ""
		g.mu.Unlock()
		if up {
			s := string(g.session)
			if g.typ != "worker" {
				_, _ = c.rod.Call(ctx, s, "Fetch.disable", nil)
			}
			if all {
				_, _ = c.rod.Call(ctx, s, "Network.emulateNetworkConditionsByRule", map[string]any{"matchedNetworkConditions": []map[string]any{}})
				_, _ = c.rod.Call(ctx, s, "Network.disable", nil)
			}
		}
		g.applyMu.Unlock()
	}
}
