package browser

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
)

// Tab is a durable handle slot of one workspace. It points at the live tab currently
// bound to it, if any; recreating the tab rebinds the same slot and handle. Its document
// generation only grows, across rebinding too, so a handle minted for an earlier
// document or an earlier tab behind the slot is always stale.
type Tab struct {
	ws     *Workspace
	handle string
	sem    chan struct{} // one holder at a time: calls on one tab are serialized
	gen    atomic.Uint64

	mu     sync.Mutex
	bind   *binding
	opened []*Tab
	// gestures holds, in order, whether each window.open of this tab's page had a
	// user gesture, until the opened target's creation event takes it.
	gestures []bool
	// refused counts opens of this tab's pages that were closed instead of
	// adopted (boundary, session_tabs, gesture policy), for settling.
	refused int
	// opensWake is closed at the next adoption or refused open (Opens).
	opensWake chan struct{}

	bound tabBoundary // the host boundary deciding its requests (boundary.go)
}

// refusedOpen records that a window this tab's page opened was closed, not adopted.
func (t *Tab) refusedOpen() {
	t.mu.Lock()
	t.refused++
	t.wakeOpensLocked()
	t.mu.Unlock()
}

// Opens returns a channel closed when a window this tab's pages opened is next
// adopted or refused, so settling wakes at once instead of polling for it.
func (t *Tab) Opens() <-chan struct{} {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.opensWake == nil {
		t.opensWake = make(chan struct{})
	}
	return t.opensWake
}

func (t *Tab) wakeOpensLocked() {
	if t.opensWake != nil {
		close(t.opensWake)
		t.opensWake = nil
	}
}

// TakeRefusedOpens returns, once, how many windows this tab's pages opened were
// closed instead of adopted since the previous call (settling counts them as
// resolved opens).
func (t *Tab) TakeRefusedOpens() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := t.refused
	t.refused = 0
	return n
}

// maxPendingOpens bounds the window-open records a tab keeps for targets not yet
// created.
const maxPendingOpens = limits.PendingOpensMax

func (t *Tab) noteWindowOpen(gesture bool) {
	t.mu.Lock()
	if len(t.gestures) >= maxPendingOpens {
		t.gestures = t.gestures[1:]
	}
	t.gestures = append(t.gestures, gesture)
	t.mu.Unlock()
}

// takeWindowOpen reports whether the oldest pending window.open had a user gesture
// (false when none is pending: unknown counts as without).
func (t *Tab) takeWindowOpen() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.gestures) == 0 {
		return false
	}
	g := t.gestures[0]
	t.gestures = t.gestures[1:]
	return g
}

// Crashed reports whether the tab bound to the slot crashed (its renderer died) and
// has not been navigated since. Calls on it fail with KindTabCrashed at once;
// Workspace.Reopen (navigation by handle) gives the slot a fresh tab.
func (t *Tab) Crashed() bool {
	bd := t.binding()
	return bd != nil && errors.Is(bd.goneErr(), ErrTabCrashed)
}

// goneError is the failure of op on a slot with no live tab.
func (t *Tab) goneError(op string) error {
	if t.Crashed() {
		return &Error{Kind: KindTabCrashed, Op: op, Tab: t.handle}
	}
	return &Error{Kind: KindTabGone, Op: op, Tab: t.handle}
}

// heldKey marks a context whose holder already owns the tab, so operations called
// inside Do do not wait for themselves.
type heldKey struct{ t *Tab }

// Handle is the opaque "tab_…" handle.
func (t *Tab) Handle() string { return t.handle }

// Workspace is the workspace owning the slot.
func (t *Tab) Workspace() *Workspace { return t.ws }

// Generation is the current document generation: it grows whenever the main frame
// commits a new document (not on pushState or fragment navigation).
func (t *Tab) Generation() uint64 { return t.gen.Load() }

func (t *Tab) binding() *binding {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.bind
}

// live returns the current binding when it is still attached to a live target.
func (t *Tab) live() *binding {
	bd := t.binding()
	if bd == nil || bd.goneErr() != nil {
		return nil
	}
	return bd
}

// Alive reports whether a live browser tab is bound to the slot right now.
func (t *Tab) Alive() bool { return t.live() != nil }

// TargetID is the DevTools target currently bound ("" when none).
func (t *Tab) TargetID() proto.TargetTargetID {
	if bd := t.binding(); bd != nil {
		return bd.targetID
	}
	return ""
}

// Page is the rod page of the bound tab, or nil when the tab is gone or still attaching.
// Inside Do it is always set. Bound calls with page.Context(ctx).
func (t *Tab) Page() *rod.Page {
	bd := t.live()
	if bd == nil {
		return nil
	}
	select {
	case <-bd.ready:
		return bd.page
	default:
		return nil
	}
}

// URL is the main frame's URL as of the latest navigation event.
func (t *Tab) URL() string {
	bd := t.binding()
	if bd == nil {
		return ""
	}
	bd.mu.Lock()
	defer bd.mu.Unlock()
	return bd.url
}

// Title is the tab title as last seen (target events and this executor's observations;
// Chromium does not announce every document.title change). Info reads it live.
func (t *Tab) Title() string {
	bd := t.binding()
	if bd == nil {
		return ""
	}
	bd.mu.Lock()
	defer bd.mu.Unlock()
	return bd.title
}

// Info reads the tab's title, URL, visibility and readiness from the browser now.
func (t *Tab) Info(ctx context.Context) (TabInfo, error) {
	bd := t.live()
	if bd == nil {
		return TabInfo{}, t.goneError("info")
	}
	res, err := proto.TargetGetTargetInfo{TargetID: bd.targetID}.Call(bd.conn.call(ctx, ""))
	if err != nil {
		return TabInfo{}, classify(ctx, "info", t.handle, withConn(bd.conn, err))
	}
	vis, ready := bd.probe(ctx)
	title := boundTitle(res.TargetInfo.Title)
	bd.mu.Lock()
	bd.title = title
	bd.mu.Unlock()
	return TabInfo{Handle: t.handle, Title: title, URL: boundURL(res.TargetInfo.URL), Active: vis, Readiness: ready}, nil
}

// TakeOpened returns the tabs this tab's pages opened (window.open, target=_blank) since
// the previous call, already adopted into the workspace.
func (t *Tab) TakeOpened() []*Tab {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := t.opened
	t.opened = nil
	return out
}

func (t *Tab) addOpened(c *Tab) {
	t.mu.Lock()
	t.opened = append(t.opened, c)
	t.wakeOpensLocked()
	t.mu.Unlock()
}

// removeOpened takes back an opened tab not yet reported (a blank popup the
// boundary closed: attach.go).
func (t *Tab) removeOpened(c *Tab) {
	t.mu.Lock()
	for i, o := range t.opened {
		if o == c {
			t.opened = append(t.opened[:i], t.opened[i+1:]...)
			break
		}
	}
	t.mu.Unlock()
}

// Do runs fn holding the tab: calls on one tab run one at a time, calls on different
// tabs in parallel. fn's context ends when ctx does, or when the tab or the browser goes
// away (cause ErrTabClosed / ErrTabCrashed / ErrBrowserGone). Tab operations called inside fn with its
// context do not wait for the hold again. Do fails with KindTabGone when no live tab is
// bound to the slot.
func (t *Tab) Do(ctx context.Context, fn func(ctx context.Context) error) error {
	return t.hold(ctx, "do", func(ctx context.Context, _ *binding) error {
		err := fn(ctx)
		if err != nil && GoneCause(ctx) != nil {
			return classify(ctx, "do", t.handle, err)
		}
		return err
	})
}

// hold acquires the tab (unless ctx already holds it), waits for its attachment, and
// runs fn with a context that also ends when the binding goes away.
func (t *Tab) hold(ctx context.Context, op string, fn func(context.Context, *binding) error) error {
	outer := false
	if ctx.Value(heldKey{t}) == nil {
		select {
		case t.sem <- struct{}{}:
		case <-ctx.Done():
			return classify(ctx, op, t.handle, context.Cause(ctx))
		}
		defer func() { <-t.sem }()
		ctx = context.WithValue(ctx, heldKey{t}, true)
		outer = true
		defer t.ws.busy()() // no spare window is made meanwhile (spare.go)
	}
	bd := t.live()
	if bd == nil {
		return t.goneError(op)
	}
	if err := bd.awaitReady(ctx); err != nil {
		return classify(ctx, op, t.handle, err)
	}
	if outer && downloadsFrom(ctx) != nil {
		// The call's download policy holds for the tab's context (downloads.go).
		if err := t.ws.applyDownloads(ctx, bd.conn, t.ws.contextOf(bd.conn)); err != nil {
			return err
		}
	}
	if cb := boundaryFrom(ctx); cb != nil && outer {
		// The call's authority decides the tab's requests while it holds it.
		defer t.govern(ctx, bd, cb)()
	}
	ctx2, cancel := context.WithCancelCause(ctx)
	stop := context.AfterFunc(bd.ctx, func() { cancel(context.Cause(bd.ctx)) })
	defer func() {
		stop()
		cancel(nil)
	}()
	return fn(ctx2, bd)
}

// Readiness observes document.readyState. While a dialog blocks the page's script it
// reports the state the lifecycle events last showed instead.
func (t *Tab) Readiness(ctx context.Context) (string, error) {
	bd := t.live()
	if bd == nil {
		return "", t.goneError("readiness")
	}
	if err := bd.awaitReady(ctx); err != nil {
		return "", classify(ctx, "readiness", t.handle, err)
	}
	var out [1]string
	if err := bd.evalJSON(ctx, `JSON.stringify([document.readyState])`, &out); err == nil {
		return out[0], nil
	} else if !errors.Is(err, ErrDialogOpened) {
		if bd.goneErr() != nil || ctx.Err() != nil {
			return "", classify(ctx, "readiness", t.handle, err)
		}
	}
	bd.mu.Lock()
	defer bd.mu.Unlock()
	return levelName(bd.level()), nil
}
