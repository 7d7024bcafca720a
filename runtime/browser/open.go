package browser

import (
	"context"
	"net/url"
	"strings"

	"github.com/go-rod/rod/lib/proto"
)

// OpenOptions shape navigation without a tab handle.
type OpenOptions struct {
	NewTab              bool   // always create a fresh controlled tab
	Reuse               string // ReuseDomain (default) or ReuseNever, when no tab is controlled
	DiscardBeforeUnload bool   // passed to Navigate
}

// OpenResult reports which tab Open used and where it landed.
type OpenResult struct {
	Tab     *Tab
	Landing Landing
	Created bool // a new tab was created
	Reused  bool // an unbound tab already on the same host was adopted
}

// Open navigates without a handle. With NewTab it creates a tab. Otherwise it uses the
// workspace's unambiguous controlled tab (KindAmbiguousTab when there are several), and
// when none is controlled it adopts an unbound tab on the same host (exact URL
// preferred; that tab is not reloaded) unless Reuse is ReuseNever, or creates one.
// Open holds the chosen tab itself: do not call it inside Do.
func (ws *Workspace) Open(ctx context.Context, rawURL string, o OpenOptions) (OpenResult, error) {
	defer ws.busy()()
	var res OpenResult
	c, err := ws.conn(ctx)
	if err != nil {
		return res, err
	}
	switch {
	case o.NewTab:
	case len(ws.liveTabs()) > 0:
		t, err := ws.Resolve(ctx, "")
		if err != nil {
			return res, err
		}
		res.Tab = t
	case o.Reuse != ReuseNever:
		t, exact, err := ws.adoptUnbound(ctx, c, rawURL)
		if err != nil {
			return res, err
		}
		if t != nil {
			res.Tab, res.Reused = t, true
			if exact {
				err := t.hold(ctx, "open", func(ctx context.Context, bd *binding) error {
					res.Landing = bd.observe(ctx)
					return nil
				})
				return res, err
			}
		}
	}
	if res.Tab == nil {
		// A spare window, made earlier, saves the new window's cost (spare.go).
		t := ws.takeSpare(c)
		if t == nil {
			if t = ws.newSlot(); t == nil {
				return res, &Error{Kind: KindClosed, Op: "open"}
			}
			if err := ws.createTarget(ctx, c, t); err != nil {
				ws.dropSlot(t)
				return res, err
			}
		}
		res.Tab, res.Created = t, true
		defer ws.refillSpares(c) // made once the workspace is idle (spare.go)
	}
	res.Landing, err = res.Tab.Navigate(ctx, rawURL, NavigateOptions{DiscardBeforeUnload: o.DiscardBeforeUnload})
	if res.Created && KindOf(err) == KindHostDenied {
		// The boundary stopped the first navigation of a tab made for it: the
		// tab goes too, so the call changed nothing.
		_, _ = ws.Close(ctx, res.Tab.Handle())
		ws.dropSlot(res.Tab)
		res.Tab, res.Created, res.Landing = nil, false, Landing{}
	}
	return res, err
}

// Reopen returns the handle's tab, recreating it under the same handle when it has
// closed (recreated is then true). Navigation by handle uses it; other calls use Resolve.
func (ws *Workspace) Reopen(ctx context.Context, handle string) (t *Tab, recreated bool, err error) {
	t = ws.lookup(handle)
	if t == nil {
		return nil, false, &Error{Kind: KindUnknownTab, Op: "reopen", Tab: handle}
	}
	c, err := ws.conn(ctx)
	if err != nil {
		return nil, false, err
	}
	if bd := t.live(); bd != nil && bd.conn == c {
		return t, false, nil
	}
	// Serialize with anything still holding the slot before rebinding it.
	if ctx.Value(heldKey{t}) == nil {
		select {
		case t.sem <- struct{}{}:
		case <-ctx.Done():
			return nil, false, classify(ctx, "reopen", handle, context.Cause(ctx))
		}
		defer func() { <-t.sem }()
	}
	if bd := t.live(); bd != nil && bd.conn == c {
		return t, false, nil
	}
	if err := ws.createTarget(ctx, c, t); err != nil {
		return nil, false, err
	}
	return t, true, nil
}

// createTarget opens a fresh about:blank tab in its own window and binds it to t. Own
// windows keep every controlled tab visible, so rendering, animation frames and input
// work in all of them at once (a background tab's rAF never fires). In a launched
// browser the window gets the configured viewport (viewport.go).
func (ws *Workspace) createTarget(ctx context.Context, c *conn, t *Tab) error {
	ct := proto.TargetCreateTarget{URL: "about:blank", NewWindow: true}
	bctx, err := ws.browserContext(ctx, c) // the session's own, under session isolation (context.go)
	if err != nil {
		return err
	}
	ct.BrowserContextID = bctx
	// Downloads are set for the context before its first page exists (downloads.go).
	if err := ws.applyDownloads(ctx, c, bctx); err != nil {
		return err
	}
	if w, h, ok := c.windowFor(); ok {
		ct.Width, ct.Height = &w, &h
	}
	// The new page is paused until its guard holds its requests; until it is
	// bound, a page attaching now may be this one (attach.go).
	c.mu.Lock()
	c.creating++
	c.mu.Unlock()
	res, err := ct.Call(c.call(ctx, ""))
	if err != nil {
		c.doneCreating()
		return classify(ctx, "open", t.handle, withConn(c, err))
	}
	bd, err := c.bind(t, res.TargetID, true)
	c.doneCreating()
	if err != nil {
		return classify(ctx, "open", t.handle, err)
	}
	if err := c.awaitGuard(ctx, res.TargetID); err != nil {
		return classify(ctx, "open", t.handle, err)
	}
	if err := bd.awaitReady(ctx); err != nil {
		return classify(ctx, "open", t.handle, err)
	}
	if err := bd.fitViewport(ctx); err != nil {
		return classify(ctx, "open", t.handle, err)
	}
	return nil
}

// bind attaches slot t to a live target, replacing any previous binding.
func (c *conn) bind(t *Tab, id proto.TargetTargetID, fresh bool) (*binding, error) {
	return c.bindAs(t, id, fresh, false)
}

// bindFree binds t to id only when no workspace owns id yet (nil binding otherwise).
func (c *conn) bindFree(t *Tab, id proto.TargetTargetID) (*binding, error) {
	return c.bindAs(t, id, false, true)
}

func (c *conn) bindAs(t *Tab, id proto.TargetTargetID, fresh, onlyFree bool) (*binding, error) {
	bd := newBinding(c, t, id)
	bd.freshBlank = fresh
	bd.adopted = onlyFree
	c.mu.Lock()
	if c.dead {
		c.mu.Unlock()
		bd.cancel(nil)
		return nil, ErrBrowserGone
	}
	if onlyFree && c.byTarget[id] != nil {
		c.mu.Unlock()
		bd.cancel(nil)
		return nil, nil
	}
	c.byTarget[id] = bd
	c.mu.Unlock()
	t.mu.Lock()
	t.bind = bd
	t.mu.Unlock()
	go bd.attach(c.ctx)
	return bd, nil
}

// adoptUnbound claims a page target no workspace owns whose host matches rawURL,
// preferring an exact URL match.
func (ws *Workspace) adoptUnbound(ctx context.Context, c *conn, rawURL string) (*Tab, bool, error) {
	want, err := url.Parse(rawURL)
	if err != nil || want.Hostname() == "" {
		return nil, false, nil
	}
	res, err := proto.TargetGetTargets{}.Call(c.call(ctx, ""))
	if err != nil {
		return nil, false, classify(ctx, "open", "", withConn(c, err))
	}
	var best *proto.TargetTargetInfo
	exact := false
	for _, ti := range res.TargetInfos {
		if ti.Type != proto.TargetTargetInfoTypePage || c.byTargetID(ti.TargetID) != nil || c.wasClosed(ti.TargetID) || !ws.mayAdopt(ti) {
			continue
		}
		// Same host means same host and port: another port is another site.
		u, err := url.Parse(ti.URL)
		if err != nil || !strings.EqualFold(u.Host, want.Host) {
			continue
		}
		if ti.URL == rawURL || ti.URL == want.String() {
			best, exact = ti, true
			break
		}
		if best == nil {
			best = ti
		}
	}
	if best == nil {
		return nil, false, nil
	}
	t := ws.newSlot()
	if t == nil {
		return nil, false, &Error{Kind: KindClosed, Op: "open"}
	}
	bd, err := c.bindFree(t, best.TargetID)
	if err != nil {
		ws.dropSlot(t)
		return nil, false, classify(ctx, "open", "", err)
	}
	if bd == nil { // another workspace claimed it meanwhile
		ws.dropSlot(t)
		return nil, false, nil
	}
	if err := bd.awaitReady(ctx); err != nil {
		return nil, false, classify(ctx, "open", t.handle, err)
	}
	// A page no workspace owned had no interception: it has now.
	c.guardBound(ctx, best.TargetID)
	return t, exact, nil
}

func (c *conn) doneCreating() {
	c.mu.Lock()
	c.creating--
	c.mu.Unlock()
}

// wasClosed reports whether Ghostlight closed the target (it may still be listed).
func (c *conn) wasClosed(id proto.TargetTargetID) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed[id]
}
