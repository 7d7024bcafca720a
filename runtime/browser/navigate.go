package browser

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
)

// Landing is where a tab is after a navigation-like call.
type Landing struct {
	URL        string
	Title      string
	Generation uint64
	Readiness  string // loading, interactive or complete
	// Committed is true when the call's navigation committed (a new document or a
	// same-document move); a timeout can still leave it true with Readiness "loading".
	Committed bool
	// Dialog is a dialog that opened during the call and now blocks the page; the call
	// returned instead of waiting for the load it prevents.
	Dialog *DialogState
	// Loading is set when the call's deadline passed with the new document interactive
	// but its load event still pending (a subresource that never finishes): the call
	// succeeded at readiness interactive, and this says what is still loading.
	Loading *Loading
}

// Loading counts what an interactive document still loads when its call ended.
type Loading struct {
	Images int // <img> elements not complete
	Frames int // same-origin frames not complete (cross-origin ones cannot be read)
}

// NavigateOptions shape one navigation.
type NavigateOptions struct {
	// DiscardBeforeUnload accepts this navigation's own unsaved-changes prompt. Without
	// it such a prompt is dismissed (the page stays) and Navigate fails with KindBeforeUnload.
	DiscardBeforeUnload bool
}

// Navigate loads rawURL in the tab and waits, bounded by ctx, for its load event. A
// dialog opening during the load ends the wait and is reported in Landing.Dialog.
func (t *Tab) Navigate(ctx context.Context, rawURL string, o NavigateOptions) (Landing, error) {
	var land Landing
	err := t.hold(ctx, "navigate", func(ctx context.Context, bd *binding) error {
		var err error
		land, err = bd.navigate(ctx, rawURL, o)
		return err
	})
	return land, err
}

// History goes back, forward, or reloads (bypassCache only matters for reload), and
// waits for the resulting document to load. Nothing to go to fails with
// KindNoHistoryEntry; an unsaved-changes prompt is dismissed and fails with KindBeforeUnload.
func (t *Tab) History(ctx context.Context, action string, bypassCache bool) (Landing, error) {
	var land Landing
	err := t.hold(ctx, "history", func(ctx context.Context, bd *binding) error {
		var err error
		land, err = bd.history(ctx, action, bypassCache)
		return err
	})
	return land, err
}

func (bd *binding) navigate(ctx context.Context, rawURL string, o NavigateOptions) (Landing, error) {
	const op = "navigate"
	if err := bd.refuseOpenDialog(ctx, op); err != nil {
		return Landing{}, err
	}
	bd.mu.Lock()
	genBefore, navBefore, blocksBefore := bd.tab.gen.Load(), bd.navSeq, bd.blocks
	bd.mu.Unlock()

	var nav *proto.PageNavigateResult // set by run once the command returned
	p := &pending{bd: bd, done: make(chan cmdResult, 1), discard: o.DiscardBeforeUnload}
	go func() {
		r, err := bd.pageNavigate(ctx, rawURL) // notes a URL that is a download (downloads.go)
		p.done <- cmdResult{r, err}
	}()
	dialog, err := p.run(ctx, func() bool {
		nav, _ = p.val.(*proto.PageNavigateResult)
		switch {
		case nav == nil || nav.ErrorText != "":
			return true
		case bd.blocks > blocksBefore && bd.lastBlock.loader == string(nav.LoaderID):
			return true // a later hop was stopped
		case nav.LoaderID == "": // same-document: its event can trail the response
			return bd.navSeq > navBefore
		case bd.loaderID == nav.LoaderID:
			return bd.level() >= levelComplete
		default: // ours committed, then the page moved on (client redirect): its load counts
			return bd.committed[nav.LoaderID] && bd.level() >= levelComplete
		}
	})
	if p.cmdDone && p.cmdErr == nil {
		nav, _ = p.val.(*proto.PageNavigateResult)
	}
	committed := func() bool {
		bd.mu.Lock()
		defer bd.mu.Unlock()
		return nav != nil && (nav.LoaderID == "" && nav.ErrorText == "" || bd.committed[nav.LoaderID])
	}
	if b, ok := bd.blockedSince(blocksBefore); ok && (nav == nil || nav.LoaderID == "" || b.loader == string(nav.LoaderID) || nav.ErrorText != "") {
		// The boundary failed a hop of this navigation inside the browser: the
		// site received nothing and the tab stayed on its page.
		return bd.fail(ctx, op, &Error{Kind: KindHostDenied, Host: b.Host, Layer: b.Layer}, false)
	}
	switch {
	case p.refused:
		bd.settleRefusal(ctx)
		return bd.fail(ctx, op, &Error{Kind: KindBeforeUnload, Dialog: p.bu}, false)
	case err != nil:
		if ours := nav != nil && nav.ErrorText == "" && nav.LoaderID != "" && p.cmdDone; ours {
			if land, ok := bd.interactiveAtDeadline(ctx, err, func() bool {
				return bd.loaderID == nav.LoaderID || bd.committed[nav.LoaderID]
			}); ok {
				bd.dropFreshBlank(ctx, genBefore)
				return land, nil
			}
		}
		bd.stopIfCancelled(ctx, committed()) // cancel.go
		return sent(bd.fail(ctx, op, err, committed()))
	case nav == nil: // a dialog opened before the command even returned
		land := bd.observe(ctx)
		land.Dialog = dialog
		return land, nil
	case nav.ErrorText != "":
		// Chromium commits an error page for every network error but an abort; it can
		// trail the response by a second on a busy machine. Wait for it so the landing and
		// the generation describe the error page rather than the page before.
		if nav.LoaderID != "" && nav.ErrorText != netErrAborted {
			_ = bd.wait(ctx, func() bool { return bd.committed[nav.LoaderID] })
		}
		bd.dropFreshBlank(ctx, genBefore)
		netErr := nav.ErrorText
		if bd.tab != nil && bd.tab.ws != nil { // behind the policy proxy's 502 (wall.go)
			netErr = bd.tab.ws.realNetError(rawURL, netErr)
		}
		return bd.fail(ctx, op, &Error{Kind: KindNavigation, NetError: netErr}, committed())
	}
	bd.dropFreshBlank(ctx, genBefore)
	land := bd.observe(ctx)
	land.Committed = true
	if dialog != nil {
		land.Dialog = dialog
	}
	return land, nil
}

func (bd *binding) history(ctx context.Context, action string, bypassCache bool) (Landing, error) {
	const op = "history"
	if err := bd.refuseOpenDialog(ctx, op); err != nil {
		return Landing{}, err
	}
	bd.mu.Lock()
	navBefore, genBefore, blocksBefore := bd.navSeq, bd.tab.gen.Load(), bd.blocks
	bd.mu.Unlock()

	var cmd func(context.Context) error
	switch action {
	case HistoryBack, HistoryForward:
		h, err := proto.PageGetNavigationHistory{}.Call(bd.call(ctx))
		if err != nil {
			return bd.fail(ctx, op, err, false)
		}
		idx := h.CurrentIndex - 1
		if action == HistoryForward {
			idx = h.CurrentIndex + 1
		}
		if idx < 0 || idx >= len(h.Entries) {
			return bd.fail(ctx, op, &Error{Kind: KindNoHistoryEntry}, false)
		}
		id := h.Entries[idx].ID
		// A move to a page kept in the back-forward cache sends no request the
		// boundary could hold: the entry itself is checked before the move.
		if host, ok := requestHost(h.Entries[idx].URL); ok {
			if allowed, layer := bd.tab.bound.now().admit(host, RequestNavigation); !allowed {
				b := bd.tab.ws.blocked.add(Blocked{Tab: bd.tab.handle, Host: host, Layer: layer, Kind: RequestNavigation})
				return bd.fail(ctx, op, &Error{Kind: KindHostDenied, Host: b.Host, Layer: b.Layer}, false)
			}
		}
		cmd = func(ctx context.Context) error {
			return proto.PageNavigateToHistoryEntry{EntryID: id}.Call(bd.call(ctx))
		}
	case HistoryReload:
		cmd = func(ctx context.Context) error {
			return proto.PageReload{IgnoreCache: bypassCache}.Call(bd.call(ctx))
		}
	default:
		return Landing{}, &Error{Kind: KindInvalidArgument, Op: op, Tab: bd.tab.handle,
			Err: errors.New("unknown history action " + action)}
	}
	p := &pending{bd: bd, done: make(chan cmdResult, 1)}
	go func() { p.done <- cmdResult{nil, cmd(ctx)} }()
	dialog, err := p.run(ctx, func() bool {
		if bd.blocks > blocksBefore { // the boundary stopped the move
			return true
		}
		if action == HistoryReload { // always a new document
			return bd.tab.gen.Load() > genBefore && bd.level() >= levelComplete
		}
		return bd.navSeq > navBefore && (bd.tab.gen.Load() == genBefore || bd.level() >= levelComplete)
	})
	moved := func() bool {
		bd.mu.Lock()
		defer bd.mu.Unlock()
		return bd.navSeq > navBefore
	}
	if b, ok := bd.blockedSince(blocksBefore); ok && !moved() {
		return bd.fail(ctx, op, &Error{Kind: KindHostDenied, Host: b.Host, Layer: b.Layer}, false)
	}
	switch {
	case p.refused:
		bd.settleRefusal(ctx)
		return bd.fail(ctx, op, &Error{Kind: KindBeforeUnload, Dialog: p.bu}, false)
	case err != nil:
		if land, ok := bd.interactiveAtDeadline(ctx, err, func() bool {
			return bd.tab.gen.Load() > genBefore
		}); ok {
			return land, nil
		}
		return sent(bd.fail(ctx, op, err, moved()))
	}
	land := bd.observe(ctx)
	land.Committed = true
	land.Dialog = dialog
	return land, nil
}

// pending drives one navigation command: it answers the command's own beforeunload
// prompt, notices any other dialog, and waits for a goal over the binding's state.
type pending struct {
	bd      *binding
	done    chan cmdResult // the command's completion
	discard bool           // accept (rather than dismiss) a beforeunload prompt

	cmdDone bool
	cmdErr  error
	val     any          // the command's result once cmdDone
	bu      *DialogState // the beforeunload prompt answered, if any
	refused bool         // that prompt was dismissed
}

// settleRefusal waits for one round trip through the renderer after a dismissed
// unsaved-changes prompt. Chromium answers the cancelled navigation before the
// renderer has finished its beforeunload dispatch; a navigation sent in that
// window is aborted without a prompt (4 of 40 under load, measured). After the
// round trip, the next call meets the page as a person would.
func (bd *binding) settleRefusal(ctx context.Context) {
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), refusalSettle)
	defer cancel()
	_ = bd.tab.Sync(sctx)
}

// refusalSettle bounds that round trip.
const refusalSettle = time.Duration(limits.RefusalSettleMsMax) * time.Millisecond

type cmdResult struct {
	val any
	err error
}

// run returns when goal (evaluated with the binding locked, only after the command
// returned) holds, when a non-beforeunload dialog blocks the page (returned), when the
// command failed or its prompt was refused, or when ctx ends.
func (p *pending) run(ctx context.Context, goal func() bool) (*DialogState, error) {
	bd := p.bd
	for {
		bd.mu.Lock()
		if bd.gone != nil {
			err := bd.gone
			bd.mu.Unlock()
			return nil, err
		}
		var d *DialogState
		if bd.dialog != nil {
			dc := *bd.dialog
			d = &dc
		}
		reached := p.cmdDone && p.cmdErr == nil && !p.refused && goal()
		ch := bd.changed
		bd.mu.Unlock()

		if d != nil && d.Type == DialogBeforeUnload && p.bu == nil {
			p.bu = d
			if err := bd.answerDialog(ctx, p.discard); err != nil {
				return nil, err
			}
			p.refused = !p.discard
			continue
		}
		if p.cmdDone && (p.cmdErr != nil || p.refused) {
			return nil, p.cmdErr
		}
		if reached {
			return nil, nil
		}
		if d != nil && d.Type != DialogBeforeUnload {
			return d, nil
		}
		var done <-chan cmdResult
		if !p.cmdDone {
			done = p.done
		}
		select {
		case r := <-done:
			p.cmdDone, p.cmdErr, p.val = true, r.err, r.val
		case <-ch:
		case <-ctx.Done():
			return nil, context.Cause(ctx)
		}
	}
}

// interactiveAtDeadline turns a navigation whose deadline passed into a success when
// its new document (ours, read with mu held) is current and at least interactive: a
// subresource that never loads must not make a usable page a failure. The landing says
// what is still loading.
func (bd *binding) interactiveAtDeadline(ctx context.Context, err error, ours func() bool) (Landing, bool) {
	if !errors.Is(err, context.DeadlineExceeded) {
		return Landing{}, false
	}
	bd.mu.Lock()
	ok := bd.gone == nil && bd.dialog == nil && ours() && bd.level() >= levelInteractive
	bd.mu.Unlock()
	if !ok {
		return Landing{}, false
	}
	land := bd.observe(ctx)
	land.Committed = true
	land.Loading = bd.stillLoading(ctx)
	return land, true
}

// stillLoading counts the document's unfinished images and same-origin frames, within
// the observation budget; zero counts when the page does not answer.
func (bd *binding) stillLoading(ctx context.Context) *Loading {
	c, cancel := bd.observeContext(ctx)
	defer cancel()
	var n [2]int
	_ = bd.evalJSON(c, `JSON.stringify((() => {
		let img = 0, frame = 0;
		for (const i of document.images) if (!i.complete) img++;
		for (const f of document.querySelectorAll("iframe, frame")) {
			try { const d = f.contentDocument; if (d && d.readyState !== "complete") frame++; } catch (e) {}
		}
		return [img, frame];
	})())`, &n)
	return &Loading{Images: max(n[0], 0), Frames: max(n[1], 0)}
}

// refuseOpenDialog fails when a dialog already blocks the page: it must be answered first.
func (bd *binding) refuseOpenDialog(ctx context.Context, op string) error {
	d := bd.currentDialog()
	if d == nil {
		return nil
	}
	l := bd.observe(ctx)
	return &Error{Kind: KindDialogOpen, Op: op, Tab: bd.tab.handle, Dialog: d, Landing: &l}
}

// fail classifies err and attaches the tab's observed state.
func (bd *binding) fail(ctx context.Context, op string, err error, committed bool) (Landing, error) {
	var e *Error
	if !errors.As(err, &e) {
		e = classify(ctx, op, bd.tab.handle, err).(*Error)
	}
	e.Op, e.Tab = op, bd.tab.handle
	if e.Kind == KindBrowserGone || e.Kind == KindTabGone {
		return Landing{}, e
	}
	l := bd.observe(ctx)
	l.Committed = committed
	e.Landing = &l
	return l, e
}

// sent marks a failure that came after the call's command went to the browser.
func sent(l Landing, err error) (Landing, error) {
	var e *Error
	if errors.As(err, &e) {
		e.Sent = true
	}
	return l, err
}

// netErrAborted is the one network error Chromium shows no error page for (downloads,
// 204 responses, cancelled navigations).
const netErrAborted = "net::ERR_ABORTED"

// dropFreshBlank removes the about:blank entry a created tab starts with, once the first
// navigation committed, so history starts at the page the model asked for.
func (bd *binding) dropFreshBlank(ctx context.Context, genBefore uint64) {
	bd.mu.Lock()
	drop := bd.freshBlank && bd.tab.gen.Load() > genBefore
	if drop {
		bd.freshBlank = false
	}
	bd.mu.Unlock()
	if drop {
		c, cancel := bd.observeContext(ctx)
		defer cancel()
		_ = proto.PageResetNavigationHistory{}.Call(bd.call(c))
	}
}

// observeContext bounds a best-effort observation that must still run after ctx's own
// deadline passed (to fill a Landing), while ending when the tab goes away.
func (bd *binding) observeContext(ctx context.Context) (context.Context, context.CancelFunc) {
	c, cancel := context.WithTimeout(context.WithoutCancel(ctx), bd.conn.b.cfg.ObserveTimeout)
	stop := context.AfterFunc(bd.ctx, cancel)
	return c, func() { stop(); cancel() }
}

// observe reads where the tab is without running page script: the URL and title from
// the browser's target info (answered by the browser process, so neither a dialog nor
// a busy renderer delays it) and readiness from the document's load events. Running
// script right after a load waits for the renderer's first paint (about 12 ms measured).
func (bd *binding) observe(ctx context.Context) Landing {
	c, cancel := bd.observeContext(ctx)
	defer cancel()
	info, err := proto.TargetGetTargetInfo{TargetID: bd.targetID}.Call(bd.conn.call(c, ""))
	bd.mu.Lock()
	defer bd.mu.Unlock()
	l := Landing{URL: bd.url, Title: bd.title, Generation: bd.tab.gen.Load(), Readiness: levelName(bd.level())}
	if err == nil && info.TargetInfo != nil {
		l.Title = boundTitle(info.TargetInfo.Title)
		bd.title = l.Title
		// An error page reports chrome-error:// (or, mid-commit, nothing); the address
		// that failed is more useful.
		if u := info.TargetInfo.URL; u != "" && !strings.HasPrefix(u, "chrome-error:") {
			l.URL = boundURL(u)
		}
	}
	if bd.dialog != nil {
		d := *bd.dialog
		l.Dialog = &d
	}
	return l
}

// blockedSince returns the latest of the tab's own navigations the boundary
// stopped after the count before (false when none was).
func (bd *binding) blockedSince(before uint64) (Blocked, bool) {
	bd.mu.Lock()
	defer bd.mu.Unlock()
	return bd.lastBlock, bd.blocks > before
}
