package browser

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
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
		return TabInfo{}, &Error{Kind: KindTabGone, Op: "info", Tab: t.handle}
	}
	res, err := proto.TargetGetTargetInfo{TargetID: bd.targetID}.Call(bd.conn.call(ctx, ""))
	if err != nil {
		return TabInfo{}, classify(ctx, "info", t.handle, withConn(bd.conn, err))
	}
	vis, ready := bd.probe(ctx)
	bd.mu.Lock()
	bd.title = res.TargetInfo.Title
	bd.mu.Unlock()
	return TabInfo{Handle: t.handle, Title: res.TargetInfo.Title, URL: res.TargetInfo.URL, Active: vis, Readiness: ready}, nil
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
	t.mu.Unlock()
}

// Do runs fn holding the tab: calls on one tab run one at a time, calls on different
// tabs in parallel. fn's context ends when ctx does, or when the tab or the browser goes
// away (cause ErrTabClosed / ErrBrowserGone). Tab operations called inside fn with its
// context do not wait for the hold again. Do fails with KindTabGone when no live tab is
// bound to the slot.
func (t *Tab) Do(ctx context.Context, fn func(ctx context.Context) error) error {
	return t.hold(ctx, "do", func(ctx context.Context, _ *binding) error {
		err := fn(ctx)
		if err != nil && ctx.Err() != nil {
			if c := context.Cause(ctx); errors.Is(c, ErrTabClosed) || errors.Is(c, ErrBrowserGone) {
				return classify(ctx, "do", t.handle, err)
			}
		}
		return err
	})
}

// hold acquires the tab (unless ctx already holds it), waits for its attachment, and
// runs fn with a context that also ends when the binding goes away.
func (t *Tab) hold(ctx context.Context, op string, fn func(context.Context, *binding) error) error {
	if ctx.Value(heldKey{t}) == nil {
		select {
		case t.sem <- struct{}{}:
		case <-ctx.Done():
			return classify(ctx, op, t.handle, context.Cause(ctx))
		}
		defer func() { <-t.sem }()
		ctx = context.WithValue(ctx, heldKey{t}, true)
	}
	bd := t.live()
	if bd == nil {
		return &Error{Kind: KindTabGone, Op: op, Tab: t.handle}
	}
	if err := bd.awaitReady(ctx); err != nil {
		return classify(ctx, op, t.handle, err)
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
		return "", &Error{Kind: KindTabGone, Op: "readiness", Tab: t.handle}
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
