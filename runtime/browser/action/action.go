// Package action runs one action on a held tab, the executor's half of every
// acting tool: it arms a settle watch and a download watch right before the
// first input, dispatches the caller's input, settles, waits for the
// downloads the input started, and observes what the action caused (a
// dialog, a landing, opened tabs, readiness). It returns those facts as a
// plain Result and decides nothing about them: whether a landing's host is
// allowed, what the envelope says, is the handler's and governance's. The
// steps of the acting tools are its methods too (a reveal, a scroll, a wheel
// turn, typing, a drag's ends and its paced drag), and so is browser_wait's
// polling of a condition (Wait).
package action

import (
	"context"
	"errors"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/input"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/settle"
)

// Landing is where the tab went: its URL and title as the browser reports
// them (uncut, ungoverned) and its document generation.
type Landing struct {
	URL, Title string
	Generation uint64
}

// Result is what one action did and caused.
type Result struct {
	// Effect is how far input got: none until something reached the page.
	Effect surface.Effect
	// Settle is the settling evidence (loading, pending, downloads the page
	// started); zero when nothing was dispatched.
	Settle settle.Result
	// Dialog is the dialog open on the tab once the action ended (nil none).
	Dialog *browser.DialogState
	// Landing is set when the tab left the document or URL the action began on.
	Landing *Landing
	// Opened are the handles of the tabs the action opened (popups the host
	// boundary closed left out).
	Opened []string
	// Readiness is the tab's readiness once observed ("" unknown).
	Readiness string
	// Cause is why the held context ended before the action did (nil: it did
	// not); Gone is the tab's or browser's end among causes (browser.GoneCause);
	// Blocking is the dialog open when a dialog's opening was the cause.
	Cause, Gone error
	Blocking    *browser.DialogState
}

// Setup is what Run needs besides the tab.
type Setup struct {
	// World is the tab's isolated world, read once the tab is held.
	World func(*browser.Tab) *pagejs.World
	// Workspace is whose downloads the action waits for.
	Workspace *browser.Workspace
	// Call is the call's own context, for observing after the held one
	// ended (a dialog, the deadline); nil: the held context.
	Call context.Context
}

// Action is one action in progress on a held tab.
type Action struct {
	t    *browser.Tab
	w    *pagejs.World
	ws   *browser.Workspace
	call context.Context // the call's own context, for observing after a dialog

	wt     *settle.Watch
	dl     func() // stops watching for a response that becomes a download
	dlMark uint64 // the workspace's download mark when the watch began
	eff    surface.Effect
	// press watches a click's releases for the element last located (nil: a
	// view point, or an element of an out-of-process frame).
	press   input.PressGuard
	located pagejs.Point

	// Settled, when set, runs once the action settled, still holding the tab,
	// when no dialog opened and the call's time lasts (a drag reads there
	// whether the page moved its source).
	Settled func(ctx context.Context)

	res Result
}

// Run holds the tab, runs fn (which locates and dispatches through the
// Action it is handed; a dialog opening cancels fn's context), settles and
// observes, and returns what happened. The error is the hold's (the tab
// could not be held); fn did not run then.
func Run(ctx context.Context, t *browser.Tab, s Setup, fn func(ctx context.Context, a *Action)) (Result, error) {
	var res Result
	err := t.Do(ctx, func(ctx context.Context) error {
		g, stop := t.Guard(ctx)
		defer stop()
		call := s.Call
		if call == nil {
			call = ctx
		}
		a := &Action{t: t, w: s.World(t), ws: s.Workspace, call: call, eff: surface.EffectNone}
		fn(g, a)
		a.finish(g)
		if a.Settled != nil && g.Err() == nil && a.res.Dialog == nil {
			a.Settled(g)
		}
		res = a.res
		res.Effect = a.eff
		res.Cause, res.Gone = context.Cause(g), browser.GoneCause(g)
		if res.Cause == browser.ErrDialogOpened {
			if d, open := t.Dialog(); open {
				res.Blocking = &d
			}
		}
		return nil
	})
	return res, err
}

// Tab and World are the held tab and its isolated world.
func (a *Action) Tab() *browser.Tab    { return a.t }
func (a *Action) World() *pagejs.World { return a.w }

// Behind sends settling's catch-up probe right behind the action's own
// message, once that is written, and returns the mark the message carries
// (settle.Watch.Behind; after ArmAhead). KeepBehind says the action ran to
// its end in the task its message started, so the probe's report counts.
func (a *Action) Behind(ctx context.Context) (mark string) { return a.wt.Behind(ctx) }
func (a *Action) KeepBehind()                              { a.wt.KeepBehind() }

// Located is the element the last Locate found.
func (a *Action) Located() pagejs.Point { return a.located }

// Arm starts watching the page; call it right before the first dispatch.
func (a *Action) Arm(ctx context.Context) {
	if a.wt == nil {
		a.dlMark = a.ws.DownloadMark()
		a.wt = settle.Start(ctx, a.t, a.w, settleConfig())
		a.dl = a.t.ExpectDownloads()
	}
}

// ArmAhead is Arm for an action that is a Runtime command of the tab's own
// page session (a script, page code of the main document's world): the
// baseline goes out ahead of it without a round trip of its own
// (settle.StartAhead). Input events must use Arm.
func (a *Action) ArmAhead(ctx context.Context) {
	if a.wt == nil {
		a.dlMark = a.ws.DownloadMark()
		a.wt = settle.StartAhead(ctx, a.t, a.w, settleConfig())
		a.dl = a.t.ExpectDownloads()
	}
}

// Dispatch runs one input operation, under the key guard (nil: none), and
// records how far it got.
func (a *Action) Dispatch(ctx context.Context, guard input.KeyGuard, fn func(ctx context.Context) (input.Effect, error)) error {
	a.Arm(ctx)
	eff, err := fn(input.WithPressGuard(input.WithFrames(input.WithKeyGuard(ctx, guard), Frames(a.t)), a.press))
	a.Note(inputEffect(eff))
	return err
}

// Note folds one step's effect into the action's.
func (a *Action) Note(e surface.Effect) {
	switch {
	case a.eff == surface.EffectUnknown || e == surface.EffectUnknown:
		a.eff = surface.EffectUnknown
	case a.eff == surface.EffectNone:
		a.eff = e
	case e == surface.EffectNone || e == surface.EffectPartial:
		a.eff = surface.EffectPartial
	}
}

// noteApplied notes a step that reached the page whole.
func (a *Action) noteApplied() { a.Note(surface.EffectApplied) }

// Effect is how far input got so far.
func (a *Action) Effect() surface.Effect {
	if a == nil {
		return surface.EffectNone
	}
	return a.eff
}

// Dispatched reports whether anything may have reached the page.
func (a *Action) Dispatched() bool { return a != nil && a.eff != surface.EffectNone }

// Cut records that a dialog stopped a many-part input (keys, characters)
// part way: what went before stands, the rest never reached the page. A
// dialog otherwise proves an input in flight arrived.
func (a *Action) Cut(ctx context.Context) {
	if a.Dispatched() && errors.Is(context.Cause(ctx), browser.ErrDialogOpened) {
		a.eff = surface.EffectPartial
	}
}

func inputEffect(e input.Effect) surface.Effect {
	switch e {
	case input.EffectApplied:
		return surface.EffectApplied
	case input.EffectPartial:
		return surface.EffectPartial
	case input.EffectUnknown:
		return surface.EffectUnknown
	}
	return surface.EffectNone
}

// finish settles after dispatch (while ctx lasts) and observes what the
// action caused: a dialog, a landing, opened tabs, readiness.
func (a *Action) finish(ctx context.Context) {
	if a.wt == nil {
		return
	}
	if a.Dispatched() && ctx.Err() == nil {
		sctx, cancel := settleContext(ctx)
		a.res.Settle = a.wt.Settle(sctx)
		cancel()
		// Downloads the page said it started (no response announced them).
		a.ws.ExpectStarted(a.dlMark, a.res.Settle.Downloads)
		// Settling's last round trip is the download barrier too (its reply
		// came through the browser after any announcement made before it);
		// only a page that never settled needs one of its own.
		barrier := closedBarrier
		if !a.res.Settle.Settled {
			barrier = a.ws.DownloadBarrier(ctx)
		}
		// A download the input started is waited for within the call's
		// timeout; the result says how it ended, or that it still runs.
		a.ws.AwaitDownloadsAfter(ctx, barrier)
	}
	a.dl()
	a.wt.Close()
	a.observe()
}

// observe reads the tab's state without page script where it can, so a
// dialog cannot block it.
func (a *Action) observe() {
	octx, cancel := context.WithTimeout(context.WithoutCancel(a.call), ObserveBudget)
	defer cancel()
	if d, open := a.t.Dialog(); open {
		a.res.Dialog = &d
	}
	for _, o := range append(a.res.Settle.Opened, a.t.TakeOpened()...) {
		// A popup opened blank and already sent somewhere: its fate first.
		o.AwaitPopupDecided(octx)
		if o.ClosedAsPopup() { // closed by the host boundary: reported as a popup closed
			continue
		}
		a.res.Opened = append(a.res.Opened, o.Handle())
	}
	a.res.Readiness = a.res.Settle.Readiness
	if a.t.Generation() != a.wt.Generation() || a.t.URL() != a.wt.URL() {
		info, err := a.t.Info(octx)
		u, ttl := info.URL, info.Title
		if err != nil {
			u, ttl = a.t.URL(), a.t.Title()
		} else {
			a.res.Readiness = info.Readiness
		}
		a.res.Landing = &Landing{URL: u, Title: ttl, Generation: a.t.Generation()}
	}
	if a.res.Readiness == "" {
		if r, err := a.t.Readiness(octx); err == nil {
			a.res.Readiness = r
		}
	}
}

// settleContext ends a little before ctx does, keeping time to observe the
// landing and author the result.
func settleContext(ctx context.Context) (context.Context, context.CancelFunc) {
	dl, ok := ctx.Deadline()
	if !ok {
		return context.WithCancel(ctx)
	}
	reserve := min(max(time.Until(dl)/10, reserveMin), reserveMax)
	return context.WithDeadline(ctx, dl.Add(-reserve))
}

// closedBarrier is a download barrier already passed.
var closedBarrier = func() <-chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}()
