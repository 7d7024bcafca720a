package settle

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
)

// ignoredRequests never hold a page unsettled: they may stay open for the
// page's whole life.
var ignoredRequests = map[proto.NetworkResourceType]bool{
	proto.NetworkResourceTypeEventSource: true,
	proto.NetworkResourceTypeWebSocket:   true,
	proto.NetworkResourceTypePing:        true,
	proto.NetworkResourceTypeMedia:       true,
	proto.NetworkResourceTypePrefetch:    true,
}

// Watch observes what an action sets in motion, from just before its input
// is dispatched until the page settles. Its observer runs in the browser's
// event order (browser.Tab.Observe) and only records; Settle decides, after
// a round trip that proves the record has caught up.
type Watch struct {
	t     *browser.Tab
	w     *pagejs.World
	frame proto.PageFrameID
	gen0  uint64
	url0  string
	keep  float64 // ms the page keeps counting frames after a probe
	cfg   Config

	obs     *browser.Observation
	probing bool // the DOM probe runs (the document is the one armed on)
	// ahead closes once a baseline sent ahead of the action (StartAhead) has
	// been recorded; probing is read only after it.
	ahead chan struct{}
	// behind carries the report of the probe sent right behind the action
	// (Behind); keepBehind says the action's reply proved it ran after all of
	// the action (KeepBehind).
	behind     chan behindReport
	keepBehind bool

	mu   sync.Mutex
	st   *State
	wake chan struct{} // cap 1: an event arrived
}

// Result is what the page did after the action.
type Result struct {
	Opened    []*browser.Tab
	Loading   bool   // a navigation was still loading at the bound
	Pending   bool   // requests the action started were still in flight at the bound
	Readiness string // document.readyState as last seen ("" unknown)
	Downloads int    // downloads the page said it let through (an a[download] link)
	// Settled: the page settled, which takes a round trip through the
	// renderer after the input; its reply passed through the browser after
	// every event the browser emitted before it, a download's announcement
	// included.
	Settled bool
}

// Start subscribes to the tab's events and takes the DOM baseline. Call it
// holding the tab, right before the input is dispatched; ctx bounds only the
// setup. Tabs the page opened before now are not the action's doing.
func Start(ctx context.Context, t *browser.Tab, w *pagejs.World, cfg Config) *Watch {
	wt := begin(ctx, t, w, cfg)
	wt.baseline(ctx)
	return wt
}

// baseline takes the DOM baseline with a round trip of its own.
func (wt *Watch) baseline(ctx context.Context) {
	if p, err := wt.probe(ctx); err == nil {
		wt.probing = true
		wt.add(Event{Kind: Probed, At: time.Now(), Probe: p})
		wt.w.Answered(wt.gen0)
	}
}

// StartAhead is Start for an action that is itself a Runtime command of the
// tab's page session (a script, page code in the isolated world): the
// baseline probe is sent, and StartAhead returns once its message is on the
// socket, without waiting for the reply. The renderer runs a session's
// Runtime commands in order, so the baseline is still taken before the
// action, and the action's round trip carries it. Input events take another
// path into the renderer and must use Start.
func StartAhead(ctx context.Context, t *browser.Tab, w *pagejs.World, cfg Config) *Watch {
	wt := begin(ctx, t, w, cfg)
	if !w.Fresh(wt.gen0) {
		// The world may belong to a document that is gone: the probe may
		// have to install and try again, which only a probe awaited allows.
		wt.baseline(ctx)
		return wt
	}
	wt.ahead = make(chan struct{})
	mark, sent, forget := browser.NewSendMark()
	done := make(chan struct{})
	go func() {
		defer close(wt.ahead)
		defer close(done)
		// Sent once: a repeat would run after the action (pagejs.World.SettleProbeOnce).
		raw, err := wt.w.SettleProbeOnce(ctx, wt.keep, wt.cfg.Frames, mark)
		var p Probe
		if err == nil && json.Unmarshal(raw, &p) == nil {
			wt.probing = true
			wt.add(Event{Kind: Probed, At: time.Now(), Probe: p})
			wt.w.Answered(wt.gen0)
		}
	}()
	select {
	case <-sent:
	case <-done: // failed before it was sent (or answered already)
	case <-ctx.Done():
	}
	forget()
	return wt
}

type behindReport struct {
	p   Probe
	at  time.Time
	err error
}

// Behind sends the catch-up probe right behind the action, once the
// action's message, which must carry the returned mark, is written: for an
// action that finishes in the task its message started (a synchronous
// script, a call of page code in the isolated world), the renderer
// runs the probe after all of it, so the probe's reply is the round trip
// after the input that settling needs, made at the same time as the action's.
// Its report counts only if KeepBehind is called (the action's reply proved
// that); otherwise settling makes its own. Only after StartAhead: the world
// is known fresh.
func (wt *Watch) Behind(ctx context.Context) (mark string) {
	if wt.ahead == nil {
		return ""
	}
	mark, sent, forget := browser.NewSendMark()
	wt.behind = make(chan behindReport, 1)
	go func() {
		defer forget()
		select {
		case <-sent:
		case <-ctx.Done():
			wt.behind <- behindReport{err: ctx.Err()}
			return
		}
		var r behindReport
		raw, err := wt.w.SettleProbeOnce(ctx, wt.keep, wt.cfg.Frames, "")
		r.at, r.err = time.Now(), err
		if err == nil {
			r.err = json.Unmarshal(raw, &r.p)
		}
		wt.behind <- r
	}()
	return mark
}

// KeepBehind says the action ran to its end in the task its message started
// (a synchronous script): the probe Behind sent saw everything it did.
func (wt *Watch) KeepBehind() {
	if wt.behind != nil {
		wt.keepBehind = true
	}
}

// begin subscribes to the tab's events and enables the network domain.
func begin(ctx context.Context, t *browser.Tab, w *pagejs.World, cfg Config) *Watch {
	cfg.Start = time.Now()
	wt := &Watch{t: t, w: w, frame: proto.PageFrameID(t.TargetID()), gen0: t.Generation(), url0: t.URL(),
		keep: ms(cfg.DOMPatience), cfg: cfg, st: New(cfg), wake: make(chan struct{}, 1)}
	t.TakeOpened()
	t.TakeRefusedOpens()
	if obs, err := t.Observe(wt.record); err == nil {
		wt.obs = obs
	}
	_ = t.EnableNetwork(ctx)
	return wt
}

// Generation and URL are the tab's document generation and URL when the
// watch began.
func (wt *Watch) Generation() uint64 { return wt.gen0 }
func (wt *Watch) URL() string        { return wt.url0 }

// Close ends the subscription.
func (wt *Watch) Close() {
	if wt.obs != nil {
		wt.obs.Stop()
	}
}

func (wt *Watch) add(e Event) {
	wt.mu.Lock()
	wt.st.Add(e)
	wt.mu.Unlock()
}

func (wt *Watch) decide(now time.Time) Verdict {
	wt.mu.Lock()
	defer wt.mu.Unlock()
	return wt.st.Decide(now)
}

func (wt *Watch) probe(ctx context.Context) (Probe, error) {
	var p Probe
	raw, err := wt.w.SettleProbe(ctx, wt.keep, wt.cfg.Frames)
	if err != nil {
		return p, err
	}
	err = json.Unmarshal(raw, &p)
	return p, err
}

// hold is the probe that waits in the page, at most d, for the DOM to stay
// unchanged across Config.Frames animation frames (pagejs.World.SettleHold). It is a round
// trip like any probe, so it is also a barrier.
func (wt *Watch) hold(ctx context.Context, d time.Duration) bool {
	if !wt.probing || wt.t.Generation() != wt.gen0 || wt.cfg.Frames <= 0 {
		return false
	}
	var p Probe
	raw, err := wt.w.SettleHold(ctx, wt.keep, wt.cfg.Frames, ms(d))
	if err != nil || json.Unmarshal(raw, &p) != nil || wt.t.Generation() != wt.gen0 {
		return false // the ordinary catch-up decides what that means
	}
	wt.add(Event{Kind: Probed, At: time.Now(), Probe: p})
	return true
}

// holdFor is how long a hold may wait: the quiet window (frames that do not
// run end it), within the DOM's patience and the call's bound.
func (wt *Watch) holdFor(ctx context.Context, now time.Time) time.Duration {
	d := wt.cfg.Quiet
	if end := wt.cfg.Start.Add(wt.cfg.DOMPatience); end.Sub(now) < d {
		d = end.Sub(now)
	}
	if dl, ok := ctx.Deadline(); ok && dl.Sub(now) < d {
		d = dl.Sub(now)
	}
	return d
}

// record turns one page event into evidence. It runs in the connection's
// read loop: it only records and wakes.
func (wt *Watch) record(method string, params json.RawMessage) {
	e := Event{At: time.Now()}
	switch method {
	case "Page.frameRequestedNavigation":
		var p proto.PageFrameRequestedNavigation
		if json.Unmarshal(params, &p) != nil || p.FrameID != wt.frame || p.Disposition != proto.PageClientNavigationDispositionCurrentTab {
			return
		}
		e.Kind = NavRequested
	case "Page.frameStartedLoading":
		var p proto.PageFrameStartedLoading
		if json.Unmarshal(params, &p) != nil || p.FrameID != wt.frame {
			return
		}
		e.Kind = LoadStarted
	case "Page.frameStoppedLoading":
		var p proto.PageFrameStoppedLoading
		if json.Unmarshal(params, &p) != nil || p.FrameID != wt.frame {
			return
		}
		e.Kind = LoadStopped
	case "Page.navigatedWithinDocument":
		var p proto.PageNavigatedWithinDocument
		if json.Unmarshal(params, &p) != nil || p.FrameID != wt.frame {
			return
		}
		e.Kind = SameDocument
	case "Page.frameNavigated":
		var p proto.PageFrameNavigated
		if json.Unmarshal(params, &p) != nil || p.Frame == nil || p.Frame.ID != wt.frame {
			return
		}
		e.Kind, e.Loader = Committed, string(p.Frame.LoaderID)
	case "Page.windowOpen":
		e.Kind = WindowOpened
	case "Network.requestWillBeSent":
		var p proto.NetworkRequestWillBeSent
		if json.Unmarshal(params, &p) != nil || ignoredRequests[p.Type] {
			return
		}
		e.Kind, e.Request, e.Loader = RequestStarted, string(p.RequestID), string(p.LoaderID)
	case "Network.loadingFinished":
		var p proto.NetworkLoadingFinished
		if json.Unmarshal(params, &p) != nil {
			return
		}
		e.Kind, e.Request = RequestEnded, string(p.RequestID)
	case "Network.loadingFailed":
		var p proto.NetworkLoadingFailed
		if json.Unmarshal(params, &p) != nil {
			return
		}
		e.Kind, e.Request = RequestEnded, string(p.RequestID)
	default:
		return
	}
	wt.add(e)
	select {
	case wt.wake <- struct{}{}:
	default:
	}
}

// catchUp is one round trip through the renderer after which every event
// it emitted before is recorded: the DOM probe while the document is the
// one the watch armed on, else a plain Sync.
func (wt *Watch) catchUp(ctx context.Context) {
	if wt.probing && wt.t.Generation() == wt.gen0 {
		p, err := wt.probe(ctx)
		switch {
		case err == nil && wt.t.Generation() == wt.gen0:
			wt.add(Event{Kind: Probed, At: time.Now(), Probe: p})
			wt.w.Answered(wt.gen0)
			return
		case ctx.Err() != nil:
			return
		}
		// The document is going away (or was replaced under the call):
		// rely on events and plain round trips from now on.
		wt.probing = false
		wt.add(Event{Kind: ProbeLost, At: time.Now()})
	}
	if err := wt.t.Sync(ctx); err != nil {
		if ctx.Err() == nil {
			wt.add(Event{Kind: BarrierFailed, At: time.Now()})
		}
		return
	}
	wt.add(Event{Kind: Synced, At: time.Now()})
}

// Settle waits while the page is changing, bounded by ctx. Call it once the
// input was acknowledged. It returns early, without error, when ctx ends (a
// dialog opening cancels a guarded ctx).
func (wt *Watch) Settle(ctx context.Context) Result {
	var out Result
	if wt.ahead != nil { // the baseline's reply came before the action's, so this is at once
		select {
		case <-wt.ahead:
		case <-ctx.Done():
			return out
		}
	}
	// Events before now were recorded already; a wake they left is stale.
	select {
	case <-wt.wake:
	default:
	}
	caught := false // the hold (or the probe behind the action) that just returned was the catch-up
	if wt.keepBehind && wt.probing {
		select {
		case r := <-wt.behind:
			if r.err == nil && wt.t.Generation() == wt.gen0 {
				// Acknowledged no later than the probe behind it answered.
				wt.add(Event{Kind: Acked, At: r.at})
				wt.add(Event{Kind: Probed, At: r.at, Probe: r.p})
				wt.w.Answered(wt.gen0)
				caught = true
			}
		case <-ctx.Done():
		}
	}
	if !caught {
		wt.add(Event{Kind: Acked, At: time.Now()})
	}
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		if !caught {
			wt.catchUp(ctx)
		}
		caught = false
		opens := wt.t.Opens() // before taking, so an adoption after it wakes the wait
		for _, o := range wt.t.TakeOpened() {
			out.Opened = append(out.Opened, o)
			wt.add(Event{Kind: TabAdopted, At: time.Now()})
		}
		// A window closed instead of adopted (host boundary, session_tabs)
		// resolves its open as well.
		for n := wt.t.TakeRefusedOpens(); n > 0; n-- {
			wt.add(Event{Kind: TabAdopted, At: time.Now()})
		}
		v := wt.decide(time.Now())
		out.Readiness, out.Downloads = v.Readiness, v.Downloads
		if v.Settled {
			out.Settled = true
			return out
		}
		if ctx.Err() != nil {
			out.Loading, out.Pending = v.Loading, !v.Loading && v.Pending > 0
			return out
		}
		if v.Barrier {
			continue
		}
		if v.DOMOnly || v.Frame {
			// Only the DOM holds the page, or it owes one frame: wait for
			// its frames in the page.
			if d := wt.holdFor(ctx, time.Now()); d > time.Millisecond && wt.hold(ctx, d) {
				caught = true
				continue
			}
			if v.Frame {
				wt.add(Event{Kind: FrameWaived, At: time.Now()})
				continue
			}
		}
		var tc <-chan time.Time
		if !v.Until.IsZero() {
			timer.Reset(time.Until(v.Until))
			tc = timer.C
		}
		if v.Opening == 0 {
			opens = nil
		}
		select {
		case <-wt.wake:
		case <-opens:
		case <-tc:
		case <-ctx.Done():
			v = wt.decide(time.Now())
			out.Loading, out.Pending = v.Loading, !v.Loading && v.Pending > 0
			out.Downloads = v.Downloads
			return out
		}
		if tc != nil && !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
	}
}
