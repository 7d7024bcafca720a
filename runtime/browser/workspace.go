package browser

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/go-rod/rod/lib/proto"
)

// Workspace is one MCP session's view of the browser: the tabs it opened, adopted, or
// that its pages opened. Other workspaces' tabs are invisible to it.
type Workspace struct {
	b  *Browser
	id string

	mu         sync.Mutex
	tabs       []*Tab // slots in creation order
	byHandle   map[string]*Tab
	epoch      uint64 // browser connection this workspace last used
	relaunched bool
	released   bool
	// popupsClosed counts popups closed at once since TakePopupsClosed last ran.
	popupsClosed int
	// closeGestureless closes popups opened without a user gesture (a policy
	// setting; the default allows them).
	closeGestureless bool
	// probe bounds how long a listing or a resolve waits on one tab's page
	// (tabProbe; tests that must tell a hung page from a slow one under load
	// lengthen it, since a hung page never answers whatever the bound).
	probe time.Duration

	blocked blockedLog  // requests the host boundary failed (boundary.go)
	dl      wsDownloads // its downloads and their directory (downloads.go)

	// isolation is IsolationSession or IsolationShared, from Config.Isolation;
	// bctx is the workspace's own browser context under session isolation
	// (context.go), nil before its first tab.
	isolation string
	bctx      *wsContext

	spare spares // blank windows kept ready for the next new tab (spare.go)
	wall  wsWall // its part of its policy proxy's decision (wall.go)
}

// TabInfo is one controlled tab as the browser shows it now.
type TabInfo struct {
	Handle    string
	Title     string
	URL       string
	Active    bool   // the tab is the shown tab of its window (document.visibilityState)
	Readiness string // loading, interactive or complete; unknown when the page did not answer
	// Crashed: the tab's page crashed; Title and URL are the last seen, and navigating
	// the handle gives it a fresh tab.
	Crashed bool
}

// ReadyUnknown is the readiness of a tab whose page did not answer a bounded probe.
const ReadyUnknown = string(surface.ReadinessUnknown)

// tabProbe bounds how long a listing or a resolve waits on one tab's page.
const tabProbe = time.Duration(limits.TabProbeMsMax) * time.Millisecond

func (ws *Workspace) probeBound() time.Duration {
	if ws.probe > 0 {
		return ws.probe
	}
	return tabProbe
}

// TabCount is how many live tabs the workspace controls.
func (ws *Workspace) TabCount() int { return len(ws.liveTabs()) }

// Live reports whether handle names a live tab of this workspace.
func (ws *Workspace) Live(handle string) bool {
	t := ws.lookup(handle)
	return t != nil && t.live() != nil
}

// SetCloseGestureless sets whether popups a page opens without a user gesture are
// closed at once (counted like popups past the tab bound). Off by default.
func (ws *Workspace) SetCloseGestureless(on bool) {
	ws.mu.Lock()
	ws.closeGestureless = on
	ws.mu.Unlock()
}

// admitPopup decides, in the read loop, whether a popup one of the workspace's pages
// opened becomes a controlled tab: not past limits.SessionTabsMax live tabs, and not
// without a user gesture when the policy closes those. A refused popup is counted.
func (ws *Workspace) admitPopup(gesture bool) bool {
	n := len(ws.liveTabs())
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if ws.released {
		return false
	}
	if n >= limits.SessionTabsMax || !gesture && ws.closeGestureless {
		ws.popupsClosed++
		return false
	}
	return true
}

// TakePopupsClosed returns, once, how many popups were closed at once since the
// previous call.
func (ws *Workspace) TakePopupsClosed() int {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	n := ws.popupsClosed
	ws.popupsClosed = 0
	return n
}

// ID is the workspace id given to Browser.Workspace.
func (ws *Workspace) ID() string { return ws.id }

// TakeRelaunched reports, once, that the browser this workspace used had died and a
// new one was started for it.
func (ws *Workspace) TakeRelaunched() bool {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	r := ws.relaunched
	ws.relaunched = false
	return r
}

// conn returns the live connection, starting the browser if needed, and records a
// relaunch when the connection differs from the one this workspace used before.
func (ws *Workspace) conn(ctx context.Context) (*conn, error) {
	c, err := ws.b.ensure(ctx)
	if err != nil {
		return nil, err
	}
	ws.mu.Lock()
	if ws.epoch != 0 && ws.epoch != c.epoch {
		ws.relaunched = true
	}
	ws.epoch = c.epoch
	ws.mu.Unlock()
	return c, nil
}

// touchDead relaunches when this workspace used a browser that has since died, so the
// call that first meets the dead browser is the one that reports the relaunch.
func (ws *Workspace) touchDead(ctx context.Context) error {
	ws.mu.Lock()
	used := ws.epoch != 0
	ws.mu.Unlock()
	if !used || ws.b.Connected() {
		return nil
	}
	_, err := ws.conn(ctx)
	return err
}

// newSlot creates an unbound slot with a fresh handle (nil once released).
func (ws *Workspace) newSlot() *Tab {
	t := &Tab{ws: ws, sem: make(chan struct{}, 1)}
	t.handle = ws.b.newHandle(t)
	ws.mu.Lock()
	released := ws.released
	if !released {
		ws.tabs = append(ws.tabs, t)
		ws.byHandle[t.handle] = t
	}
	ws.mu.Unlock()
	if released {
		ws.b.mu.Lock()
		delete(ws.b.handles, t.handle)
		ws.b.mu.Unlock()
		return nil
	}
	return t
}

// dropSlot forgets a slot that never got a tab.
func (ws *Workspace) dropSlot(t *Tab) {
	ws.mu.Lock()
	delete(ws.byHandle, t.handle)
	for i, x := range ws.tabs {
		if x == t {
			ws.tabs = append(ws.tabs[:i], ws.tabs[i+1:]...)
			break
		}
	}
	ws.mu.Unlock()
	ws.b.mu.Lock()
	delete(ws.b.handles, t.handle)
	ws.b.mu.Unlock()
}

func (ws *Workspace) lookup(handle string) *Tab {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	return ws.byHandle[handle]
}

// liveTabs lists slots bound to live tabs, in creation order.
func (ws *Workspace) liveTabs() []*Tab {
	ws.mu.Lock()
	all := append([]*Tab(nil), ws.tabs...)
	ws.mu.Unlock()
	out := all[:0]
	for _, t := range all {
		if t.live() != nil {
			out = append(out, t)
		}
	}
	return out
}

func (ws *Workspace) release() []*Tab {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	ws.released = true
	tabs := ws.tabs
	ws.tabs = nil
	ws.byHandle = map[string]*Tab{}
	return tabs
}

func (ws *Workspace) closeAll(ctx context.Context, c *conn) {
	ws.mu.Lock()
	tabs := append([]*Tab(nil), ws.tabs...)
	ws.mu.Unlock()
	ws.closeTabs(ctx, c, tabs)
}

func (ws *Workspace) closeTabs(ctx context.Context, c *conn, tabs []*Tab) {
	for _, t := range tabs {
		if bd := t.live(); bd != nil && bd.conn == c {
			if bd.adopted && c.launched() == nil { // the person's own tab stays open
				c.letGo(ctx, bd)
				continue
			}
			_, _ = proto.TargetCloseTarget{TargetID: bd.targetID}.Call(c.call(ctx, ""))
			c.targetGone(bd.targetID)
		}
	}
}

// Tabs lists this workspace's tabs: the live ones as the browser shows them now, and
// crashed ones as last seen. It never waits on a page that does not answer: each tab's
// probe is bounded by tabProbe, past which its readiness is ReadyUnknown.
func (ws *Workspace) Tabs(ctx context.Context) ([]TabInfo, error) {
	defer ws.busy()()
	c, err := ws.conn(ctx)
	if err != nil {
		return nil, err
	}
	// Answered by the browser process: a hung or crashed renderer does not delay it.
	res, err := proto.TargetGetTargets{}.Call(c.call(ctx, ""))
	if err != nil {
		return nil, classify(ctx, "tabs", "", withConn(c, err))
	}
	infos := make(map[proto.TargetTargetID]*proto.TargetTargetInfo, len(res.TargetInfos))
	for _, ti := range res.TargetInfos {
		infos[ti.TargetID] = ti
	}
	ws.mu.Lock()
	all := append([]*Tab(nil), ws.tabs...)
	ws.mu.Unlock()
	out := make([]TabInfo, 0, len(all))
	var probes []func()
	for _, t := range all {
		bd := t.binding()
		if bd == nil {
			continue
		}
		if t.Crashed() {
			bd.mu.Lock()
			out = append(out, TabInfo{Handle: t.handle, Title: bd.title, URL: bd.url, Readiness: ReadyUnknown, Crashed: true})
			bd.mu.Unlock()
			continue
		}
		if bd.goneErr() != nil || bd.conn != c {
			continue
		}
		info := infos[bd.targetID]
		if info == nil { // closed before its event arrived
			c.targetGone(bd.targetID)
			continue
		}
		title := boundTitle(info.Title)
		bd.mu.Lock()
		bd.title = title
		bd.mu.Unlock()
		i := len(out)
		out = append(out, TabInfo{Handle: t.handle, Title: title, URL: boundURL(info.URL)})
		probes = append(probes, func() {
			vis, ready, ok := bd.probeWithin(ctx, ws.probeBound())
			if !ok {
				ready = ReadyUnknown
			}
			out[i].Active, out[i].Readiness = vis, ready
		})
	}
	var wg sync.WaitGroup
	for _, p := range probes {
		wg.Go(p)
	}
	wg.Wait()
	if ctx.Err() != nil {
		return nil, classify(ctx, "tabs", "", context.Cause(ctx))
	}
	return out, nil
}

// probe observes visibility and readiness in one round trip; while a dialog blocks
// script it answers from the last observation and the lifecycle events.
func (bd *binding) probe(ctx context.Context) (visible bool, readiness string) {
	visible, readiness, _ = bd.probeWithin(ctx, 0)
	return visible, readiness
}

// probeWithin is probe bounded by d (0: by ctx alone). answered is false when the page
// did not answer in time; visible and readiness are then the last observed.
func (bd *binding) probeWithin(ctx context.Context, d time.Duration) (visible bool, readiness string, answered bool) {
	if d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	answered = true
	if bd.awaitReady(ctx) == nil {
		var v [2]string
		err := bd.evalJSON(ctx, `JSON.stringify([document.visibilityState, document.readyState])`, &v)
		if err == nil {
			bd.mu.Lock()
			bd.visible = v[0] == "visible"
			bd.mu.Unlock()
			return v[0] == "visible", v[1], true
		}
		answered = errors.Is(err, ErrDialogOpened) // a dialog answers for the page
	} else {
		answered = false
	}
	bd.mu.Lock()
	defer bd.mu.Unlock()
	return bd.visible, levelName(bd.level()), answered
}

// Resolve selects a controlled tab. An empty handle selects the only controlled tab, or
// the sole active one; otherwise it fails with KindNoTab or KindAmbiguousTab. A handle
// of another workspace fails with KindUnknownTab; a handle whose tab closed fails with
// KindTabGone (navigation recreates it with Reopen instead).
func (ws *Workspace) Resolve(ctx context.Context, handle string) (*Tab, error) {
	if err := ws.touchDead(ctx); err != nil {
		return nil, err
	}
	if handle != "" {
		t := ws.lookup(handle)
		if t == nil {
			return nil, &Error{Kind: KindUnknownTab, Op: "resolve", Tab: handle}
		}
		if t.live() == nil {
			return nil, t.goneError("resolve")
		}
		return t, nil
	}
	live := ws.liveTabs()
	switch len(live) {
	case 0:
		if t := ws.lastCrashed(); t != nil { // the tab the model means crashed: say so
			return nil, t.goneError("resolve")
		}
		return nil, &Error{Kind: KindNoTab, Op: "resolve"}
	case 1:
		return live[0], nil
	}
	active := make([]bool, len(live))
	var wg sync.WaitGroup
	for i, t := range live {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if bd := t.live(); bd != nil {
				active[i], _, _ = bd.probeWithin(ctx, ws.probeBound())
			}
		}()
	}
	wg.Wait()
	settleWindows(ctx, live, active)
	if ctx.Err() != nil {
		return nil, classify(ctx, "resolve", "", context.Cause(ctx))
	}
	var pick *Tab
	for i, t := range live {
		if active[i] {
			if pick != nil {
				return nil, &Error{Kind: KindAmbiguousTab, Op: "resolve"}
			}
			pick = t
		}
	}
	if pick == nil {
		return nil, &Error{Kind: KindAmbiguousTab, Op: "resolve"}
	}
	return pick, nil
}

// lastCrashed is the most recently created slot whose tab crashed, if any.
func (ws *Workspace) lastCrashed() *Tab {
	ws.mu.Lock()
	all := append([]*Tab(nil), ws.tabs...)
	ws.mu.Unlock()
	for i := len(all) - 1; i >= 0; i-- {
		if all[i].Crashed() {
			return all[i]
		}
	}
	return nil
}

// CloseResult reports a close: Closed when this call closed a live tab, AlreadyGone
// when the handle's tab had already closed (and the browser was not touched).
type CloseResult struct {
	Closed      bool
	AlreadyGone bool
}

// Close closes the handle's tab. The handle stays a durable slot of the workspace.
func (ws *Workspace) Close(ctx context.Context, handle string) (CloseResult, error) {
	t := ws.lookup(handle)
	if t == nil {
		return CloseResult{}, &Error{Kind: KindUnknownTab, Op: "close", Tab: handle}
	}
	bd := t.live()
	if bd == nil {
		if t.Crashed() { // its dead tab was closed when it crashed; stop listing it
			t.mu.Lock()
			t.bind = nil
			t.mu.Unlock()
		}
		return CloseResult{AlreadyGone: true}, nil
	}
	c := bd.conn
	_, err := proto.TargetCloseTarget{TargetID: bd.targetID}.Call(c.call(ctx, ""))
	if err != nil {
		if bd.goneErr() != nil || c.targetAbsent(ctx, bd.targetID) {
			c.targetGone(bd.targetID)
			return CloseResult{AlreadyGone: true}, nil
		}
		return CloseResult{}, classify(ctx, "close", handle, withConn(c, err))
	}
	c.targetGone(bd.targetID)
	return CloseResult{Closed: true}, nil
}

// FocusResult reports what focusing observed.
type FocusResult struct {
	Active        bool // the tab is now the shown tab of its window
	WindowFocused bool // the page reports document.hasFocus()
}

// Focus brings the handle's tab to the front of its window.
func (ws *Workspace) Focus(ctx context.Context, handle string) (FocusResult, error) {
	t, err := ws.Resolve(ctx, handle)
	if err != nil {
		return FocusResult{}, err
	}
	var res FocusResult
	err = t.hold(ctx, "focus", func(ctx context.Context, bd *binding) error {
		if err := (proto.TargetActivateTarget{TargetID: bd.targetID}).Call(bd.conn.call(ctx, "")); err != nil {
			return classify(ctx, "focus", handle, err)
		}
		if err := (proto.PageBringToFront{}).Call(bd.call(ctx)); err != nil {
			return classify(ctx, "focus", handle, err)
		}
		var v [2]any
		if err := bd.evalJSON(ctx, `JSON.stringify([document.visibilityState, document.hasFocus()])`, &v); err == nil {
			res.Active = v[0] == "visible"
			res.WindowFocused = v[1] == true
			bd.mu.Lock()
			bd.visible = res.Active
			bd.mu.Unlock()
			ws.hideSiblings(ctx, bd)
			return nil
		} else if bd.goneErr() != nil || ctx.Err() != nil {
			return classify(ctx, "focus", handle, err)
		}
		// A dialog blocks script: the activation itself succeeded.
		res.Active = true
		return nil
	})
	return res, err
}

// withConn prefers the connection's end over the transport error it caused.
func withConn(c *conn, err error) error {
	if err != nil && !c.alive() {
		return ErrBrowserGone
	}
	return err
}

// targetAbsent reports whether the browser lists no target id: a close that
// failed because the tab closed itself before its destroyed event arrived.
// The browser's own list says so, not its error's wording; a browser that
// does not answer is not taken to have closed it.
func (c *conn) targetAbsent(ctx context.Context, id proto.TargetTargetID) bool {
	res, err := proto.TargetGetTargets{}.Call(c.call(ctx, ""))
	if err != nil {
		return false
	}
	for _, ti := range res.TargetInfos {
		if ti.TargetID == id {
			return false
		}
	}
	return true
}
