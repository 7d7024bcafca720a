package browser

import (
	"context"
	"encoding/json"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
)

// onEvent runs inside the client's read loop, in the browser's order. It only updates
// state and wakes waiters: it must never wait for the browser.
func (c *conn) onEvent(method string, session proto.TargetSessionID, params json.RawMessage) {
	switch method {
	case "Target.targetCreated":
		// A page's own popups are adopted by their guard when their first
		// document commits (attach.go), never before the boundary decided it.
	case "Target.targetDestroyed":
		var e proto.TargetTargetDestroyed
		if json.Unmarshal(params, &e) == nil {
			c.targetGone(e.TargetID)
		}
	case "Target.targetInfoChanged":
		var e proto.TargetTargetInfoChanged
		if json.Unmarshal(params, &e) == nil && e.TargetInfo != nil {
			if bd := c.byTargetID(e.TargetInfo.TargetID); bd != nil {
				bd.mu.Lock()
				bd.title = boundTitle(e.TargetInfo.Title)
				bd.mu.Unlock()
			}
			c.noteGuardURL(e.TargetInfo.TargetID, e.TargetInfo.URL)
		}
	case "Target.attachedToTarget":
		var ae attachedEvent
		if json.Unmarshal(params, &ae) == nil && c.onAttached(session, &ae) {
			return // a guard session (attach.go)
		}
		var e proto.TargetAttachedToTarget
		// Only root sessions of our own targets; auto-attached children carry a parent session.
		if session == "" && json.Unmarshal(params, &e) == nil && e.TargetInfo != nil {
			if bd := c.byTargetID(e.TargetInfo.TargetID); bd != nil {
				bd.mu.Lock()
				first := bd.session == ""
				if first {
					bd.session = e.SessionID
				}
				bd.mu.Unlock()
				if first {
					c.registerSession(bd, e.SessionID)
				}
			}
		}
	case "Target.detachedFromTarget":
		var e proto.TargetDetachedFromTarget
		if json.Unmarshal(params, &e) == nil && c.guardBySession(e.SessionID) != nil {
			c.dropGuard(e.SessionID)
			return
		}
		if session == "" && json.Unmarshal(params, &e) == nil {
			if bd := c.bySessionID(e.SessionID); bd != nil {
				c.targetGone(bd.targetID)
			}
		}
	case "Inspector.detached":
		if bd := c.bySessionID(session); bd != nil {
			c.targetGone(bd.targetID)
		}
	case "Inspector.targetCrashed":
		if bd := c.bySessionID(session); bd != nil {
			c.targetCrashed(bd.targetID)
		}
	case "Browser.downloadWillBegin", "Browser.downloadProgress":
		c.onDownloadEvent(method, params) // downloads.go
	case "Target.targetCrashed":
		var e struct {
			TargetID proto.TargetTargetID `json:"targetId"`
		}
		if json.Unmarshal(params, &e) == nil {
			c.targetCrashed(e.TargetID)
		}
	case "Page.windowOpen":
		// It precedes the opened target's Target.targetCreated (measured), which
		// takes the gesture back in adoptOpened.
		var e struct {
			UserGesture bool `json:"userGesture"`
		}
		if bd := c.bySessionID(session); bd != nil && json.Unmarshal(params, &e) == nil {
			bd.tab.noteWindowOpen(e.UserGesture)
		}
	default:
		if g := c.guardBySession(session); g != nil {
			c.onGuardEvent(g, method, params)
		} else if bd := c.bySessionID(session); bd != nil {
			if method == "Page.frameStartedNavigating" {
				c.startedNavigating(bd, params) // popupdecide.go
			}
			bd.onPageEvent(method, params)
		}
	}
}

func (bd *binding) onPageEvent(method string, params json.RawMessage) {
	bd.mu.Lock()
	defer bd.mu.Unlock()
	switch method {
	case "Page.frameNavigated":
		var e proto.PageFrameNavigated
		if json.Unmarshal(params, &e) != nil || e.Frame == nil || e.Frame.ParentID != "" {
			return
		}
		bd.frameID = e.Frame.ID
		u := e.Frame.URL + e.Frame.URLFragment
		if e.Frame.UnreachableURL != "" { // an error page: report the address that failed
			u = e.Frame.UnreachableURL
		}
		bd.commitLocked(e.Frame.LoaderID, boundURL(u))
		if e.Type == proto.PageNavigationTypeBackForwardCacheRestore {
			// A restored document fires no lifecycle events: it is already loaded.
			bd.levels[e.Frame.LoaderID] = levelComplete
		}
		bd.notify()
	case "Page.navigatedWithinDocument":
		var e proto.PageNavigatedWithinDocument
		if json.Unmarshal(params, &e) != nil || e.FrameID != bd.frameID {
			return
		}
		bd.url = boundURL(e.URL)
		bd.navSeq++
		bd.notify()
	case "Page.lifecycleEvent":
		var e proto.PageLifecycleEvent
		if json.Unmarshal(params, &e) != nil || e.FrameID != bd.frameID {
			return
		}
		lvl := -1
		switch e.Name {
		case "init", "commit":
			lvl = levelLoading
		case "DOMContentLoaded":
			lvl = levelInteractive
		case "load":
			lvl = levelComplete
		}
		if cur, ok := bd.levels[e.LoaderID]; lvl >= 0 && (!ok || lvl > cur) {
			if !ok && len(bd.levels) >= maxTrackedLoaders {
				clear(bd.levels)
			}
			bd.levels[e.LoaderID] = lvl
			bd.notify()
		}
	case "Page.domContentEventFired", "Page.loadEventFired":
		// The main frame's current document; these arrive a little before the matching
		// lifecycle events (measured), and a document that is gone cannot fire them.
		lvl := levelInteractive
		if method == "Page.loadEventFired" {
			lvl = levelComplete
		}
		if bd.loaderID != "" && bd.levels[bd.loaderID] < lvl {
			bd.levels[bd.loaderID] = lvl
			bd.notify()
		}
	case "Page.javascriptDialogOpening":
		var e proto.PageJavascriptDialogOpening
		if json.Unmarshal(params, &e) != nil {
			return
		}
		bd.dialog = &DialogState{
			Type:          string(e.Type),
			Message:       boundText(e.Message, dialogTextChars),
			DefaultPrompt: boundText(e.DefaultPrompt, dialogTextChars),
			URL:           boundURL(e.URL),
			Opened:        time.Now(),
		}
		for g := range bd.guards {
			g.cancel(ErrDialogOpened)
		}
		clear(bd.guards)
		bd.notify()
	case "Page.javascriptDialogClosed":
		bd.dialog = nil
		bd.notify()
	}
}

func (c *conn) byTargetID(id proto.TargetTargetID) *binding {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.byTarget[id]
}

func (c *conn) bySessionID(id proto.TargetSessionID) *binding {
	if id == "" {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bySession[id]
}

func (c *conn) registerSession(bd *binding, id proto.TargetSessionID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.dead && c.byTarget[bd.targetID] == bd {
		c.bySession[id] = bd
	}
}

// targetGone forgets a target and marks its binding gone.
func (c *conn) targetGone(id proto.TargetTargetID) {
	if bd := c.forget(id); bd != nil {
		bd.markGone(ErrTabClosed)
	}
}

// targetCrashed marks the binding of a target whose renderer died: the call in
// flight ends at once (cause ErrTabCrashed), later calls on the slot are refused
// as crashed until navigation rebinds it, and the dead tab (an error page that no
// call can use) is closed. Runs in the read loop: the close is not awaited.
func (c *conn) targetCrashed(id proto.TargetTargetID) {
	bd := c.forget(id)
	if bd == nil {
		return
	}
	bd.markGone(ErrTabCrashed)
	c.b.log.Warn("tab crashed", "tab", bd.tab.handle)
	c.closeAsync(id)
}

// closeAsync closes a target without waiting for the browser (the read loop
// must never wait).
func (c *conn) closeAsync(id proto.TargetTargetID) {
	go func() {
		ctx, cancel := context.WithTimeout(c.ctx, c.b.cfg.CloseTimeout)
		defer cancel()
		_, _ = proto.TargetCloseTarget{TargetID: id}.Call(c.call(ctx, ""))
	}()
}

// forget drops a target from the connection's maps, remembers it as closed (never
// to be adopted) and returns its binding, if it had one.
func (c *conn) forget(id proto.TargetTargetID) *binding {
	c.mu.Lock()
	if c.closed == nil || len(c.closed) >= maxClosedRemembered {
		// Targets closed long ago are no longer listed: forget them.
		c.closed = map[proto.TargetTargetID]bool{}
	}
	c.closed[id] = true
	bd := c.byTarget[id]
	if bd != nil {
		delete(c.byTarget, id)
		for s, b := range c.bySession {
			if b == bd {
				delete(c.bySession, s)
			}
		}
	}
	c.mu.Unlock()
	return bd
}

// maxClosedRemembered bounds the closed-target memory of one connection.
const maxClosedRemembered = limits.ClosedTargetsKeptMax
