package tools

// Shared action plumbing: resolve where an action lands (a target, a
// selector, or a point of a current view), dispatch its input, settle, and
// turn what happened into one truthful outcome and receipt.

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/capture"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/input"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/settle"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
)

// observeBudget bounds what an action still observes after its call's own
// context ended (the landing after a dialog, say). Tuning, not a contract bound.
var observeBudget = time.Duration(surface.ObserveMsMax) * time.Millisecond

// tabFor resolves the tab of a call that may name it only through a target
// or a view handle.
func (s *session) tabFor(ctx context.Context, tab, target, view string) (*browser.Tab, *surface.Refusal) {
	if tab == "" && target == "" && view != "" {
		if e := s.views.get(view); e != nil {
			tab = e.tab
		}
	}
	return s.tab(ctx, tab, target)
}

// act is one action on a held tab.
type act struct {
	s    *session
	t    *browser.Tab
	w    *pagejs.World
	host string
	// call is the call's own context (not dialog-guarded), for observing
	// what happened after a dialog cancelled the guarded one.
	call context.Context

	wt *settle.Watch
	dl func() // stops watching for a response that becomes a download (download.go)
	// dlMark is the workspace's download mark when the watch began.
	dlMark uint64
	eff    surface.Effect // how far input got: none until something reached the page
	res    settle.Result

	dialog    *browser.DialogState
	landing   *surface.Landing
	denied    bool // the landing host is outside the authority
	opened    []string
	readiness string
	// settled, when set, runs once the action settled, still holding the
	// tab (a drag reads there whether the page moved its source).
	settled func(ctx context.Context)
	// press watches a click's releases for the element last located
	// (nil: a view point, or an element of an out-of-process frame).
	press input.PressGuard
	// located is the element last located (its role, name and the form it
	// submits, for policy confirm: confirm.go).
	located pagejs.Point
	// asking records the person's answer to the confirmation the act
	// stopped for (nil: it stopped for none).
	asking func(answer string)
}

func (s *session) newAct(call context.Context, t *browser.Tab) *act {
	return &act{s: s, t: t, w: s.world(t), host: language.Host(t.URL()), call: call, eff: surface.EffectNone}
}

// element is the element an action hit, as its receipt names it: its name
// withheld when names are not preserved.
func (a *act) element(role, name string) *language.Acted {
	e := &language.Acted{Role: language.Role(role)}
	if a.names() {
		e.Name = language.Name(name)
	}
	return e
}

// zoom converts CSS viewport px to input coordinates under the tab's zoom
// emulation (Chromium takes input in unscaled window px there).
func (a *act) zoom(x, y float64) input.Point {
	f := float64(a.t.ZoomPercent()) / 100
	if f <= 0 {
		f = 1
	}
	return input.Point{X: x * f, Y: y * f}
}

// resolve turns a target handle or selector into a live element id.
func (a *act) resolve(ctx context.Context, target string, sel *surface.Selector, pointer string) (int, *surface.Refusal) {
	id, r := a.s.elementBy(ctx, a.t, target, sel, pointer, pagejs.ActionDeadline(ctx))
	if r != nil {
		if r.Pointer == "" && (r.Reason == surface.ReasonStaleTarget || r.Reason == surface.ReasonTargetNotFound || r.Reason == surface.ReasonTargetAmbiguous) {
			r.Pointer = pointer
		}
	}
	return id, r
}

// locate resolves a target or selector and returns the verified point to
// press and the element there, from the same page round trip.
func (a *act) locate(ctx context.Context, target string, sel *surface.Selector, pointer string, opt pagejs.LocateOptions) (input.Point, *language.Acted, pagejs.Point, *surface.Refusal) {
	id, r := a.resolve(ctx, target, sel, pointer)
	if r != nil {
		return input.Point{}, nil, pagejs.Point{}, r
	}
	return a.locateID(ctx, id, pointer, opt)
}

// locateID is locate for an element already resolved. It waits, frame by
// frame within the call's timeout, for the element to be able to take the
// action (pagejs.AwaitActionable).
func (a *act) locateID(ctx context.Context, id int, pointer string, opt pagejs.LocateOptions) (input.Point, *language.Acted, pagejs.Point, *surface.Refusal) {
	p, err := pagejs.AwaitActionable(ctx, a.w, id, opt, pagejs.ActionDeadline(ctx))
	if err != nil {
		r := refusalFor(err, 0)
		if r.Reason == surface.ReasonStaleTarget {
			r.Pointer = pointer
		}
		return input.Point{}, nil, p, r
	}
	a.press, a.located = nil, p
	if pw := pagejs.WatchPress(a.w, id, p.X, p.Y, pagejs.ActionDeadline(ctx)); pw != nil {
		a.press = pw
	}
	return a.zoom(p.X, p.Y), a.element(p.Role, p.Name), p, nil
}

// viewPoint maps image pixel (x, y) of a view to input coordinates, refusing
// a view whose binding is no longer current before anything is dispatched.
func (a *act) viewPoint(ctx context.Context, view string, x, y int, pointer string) (input.Point, *surface.Refusal) {
	e := a.s.views.get(view)
	if e == nil {
		return input.Point{}, a.s.views.missing(view, pointer)
	}
	if e.tab != a.t.Handle() {
		return input.Point{}, &surface.Refusal{Reason: surface.ReasonInvalidArguments, Pointer: pointer, Message: "that view belongs to another tab"}
	}
	now, err := capture.ReadBinding(ctx, a.t.Page(), a.t.Generation())
	if err != nil {
		return input.Point{}, refusalFor(err, 0)
	}
	if !capture.Current(e.view, now) {
		return input.Point{}, &surface.Refusal{Reason: surface.ReasonStaleView, Pointer: pointer}
	}
	// The model names a pixel; its centre is the point.
	fx, fy := float64(x)+0.5, float64(y)+0.5
	if !e.view.Contains(fx, fy) {
		return input.Point{}, &surface.Refusal{Reason: surface.ReasonRegionOutside, Pointer: pointer,
			Message: fmt.Sprintf("(%d, %d) is outside the %dx%d image", x, y, e.view.ImageWidth, e.view.ImageHeight)}
	}
	if !e.view.VisibleAt(now, fx, fy) {
		return input.Point{}, &surface.Refusal{Reason: surface.ReasonRegionOutside, Pointer: pointer,
			Message: fmt.Sprintf("(%d, %d) is not in the visible part of the page; scroll it into view first", x, y)}
	}
	vx, vy := e.view.ToViewportAt(now, fx, fy)
	// The element under the point must hold still two frames running.
	f := float64(a.t.ZoomPercent()) / 100
	if f <= 0 {
		f = 1
	}
	if err := pagejs.AwaitPointStable(ctx, a.w, vx/f, vy/f, pagejs.ActionDeadline(ctx)); err != nil {
		return input.Point{}, refusalFor(err, 0)
	}
	return input.Point{X: vx, Y: vy}, nil
}

// arm starts watching the page; call it right before the first dispatch.
func (a *act) arm(ctx context.Context) {
	if a.wt == nil {
		a.dlMark = a.s.ws.DownloadMark()
		a.wt = settle.Start(ctx, a.t, a.w, settleConfig())
		a.dl = a.t.ExpectDownloads()
	}
}

// armAhead is arm for an action that is a Runtime command of the tab's own
// page session (a script, page code of the main document's world): the
// baseline goes out ahead of it without a round trip of its own
// (settle.StartAhead). Input events must use arm.
func (a *act) armAhead(ctx context.Context) {
	if a.wt == nil {
		a.dlMark = a.s.ws.DownloadMark()
		a.wt = settle.StartAhead(ctx, a.t, a.w, settleConfig())
		a.dl = a.t.ExpectDownloads()
	}
}

// dispatch runs one input operation and records how far it got.
func (a *act) dispatch(ctx context.Context, fn func(ctx context.Context) (input.Effect, error)) error {
	a.arm(ctx)
	eff, err := fn(input.WithPressGuard(input.WithFrames(input.WithKeyGuard(ctx, a.keyGuard()), AllFrames(a.t)), a.press))
	a.note(inputEffect(eff))
	return err
}

// note folds one step's effect into the action's.
func (a *act) note(e surface.Effect) {
	switch {
	case a.eff == surface.EffectUnknown || e == surface.EffectUnknown:
		a.eff = surface.EffectUnknown
	case a.eff == surface.EffectNone:
		a.eff = e
	case e == surface.EffectNone || e == surface.EffectPartial:
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

// cut records that a dialog stopped a many-part input (keys, characters)
// part way: what went before stands, the rest never reached the page. A
// dialog otherwise proves an input in flight arrived (see outcome).
func (a *act) cut(ctx context.Context) {
	if a.dispatched() && errors.Is(context.Cause(ctx), browser.ErrDialogOpened) {
		a.eff = surface.EffectPartial
	}
}

// dispatched reports whether anything may have reached the page.
func (a *act) dispatched() bool { return a != nil && a.eff != surface.EffectNone }

// finish settles after dispatch (while ctx lasts) and observes what the
// action caused: a dialog, a landing, opened tabs, readiness.
func (a *act) finish(ctx context.Context) {
	if a.wt == nil {
		return
	}
	if a.dispatched() && ctx.Err() == nil {
		sctx, cancel := settleContext(ctx)
		a.res = a.wt.Settle(sctx)
		cancel()
		// Downloads the page said it started (no response announced them).
		a.s.ws.ExpectStarted(a.dlMark, a.res.Downloads)
		// Settling's last round trip is the download barrier too (its reply
		// came through the browser after any announcement made before it);
		// only a page that never settled needs one of its own.
		barrier := closedBarrier
		if !a.res.Settled {
			barrier = a.s.ws.DownloadBarrier(ctx)
		}
		// A download the input started is waited for within the call's
		// timeout; the result says how it ended, or that it still runs.
		a.s.ws.AwaitDownloadsAfter(ctx, barrier)
	}
	a.dl()
	a.wt.Close()
	a.observe()
}

// observe reads the tab's state without page script where it can, so a
// dialog cannot block it.
func (a *act) observe() {
	octx, cancel := context.WithTimeout(context.WithoutCancel(a.call), observeBudget)
	defer cancel()
	if d, open := a.t.Dialog(); open {
		a.dialog = &d
	}
	for _, o := range append(a.res.Opened, a.t.TakeOpened()...) {
		// A popup opened blank and already sent somewhere: its fate first.
		o.AwaitPopupDecided(octx)
		if o.ClosedAsPopup() { // closed by the host boundary: reported as a popup closed
			continue
		}
		a.opened = append(a.opened, o.Handle())
	}
	a.readiness = a.res.Readiness
	if a.wt != nil && (a.t.Generation() != a.wt.Generation() || a.t.URL() != a.wt.URL()) {
		info, err := a.t.Info(octx)
		u, ttl := info.URL, info.Title
		if err != nil {
			u, ttl = a.t.URL(), a.t.Title()
		} else {
			a.readiness = info.Readiness
		}
		a.landing = &surface.Landing{URL: governedURL(u), Title: title(ttl), DocumentGeneration: int(a.t.Generation())}
		if inv := pipeline.FromContext(a.call); inv != nil && inv.Authority.AdmitURL(u) != nil {
			a.denied = true
			a.landing.URL, a.landing.Title = governedURL(originOf(u)), "" // origin only; title withheld
		}
	}
	if a.readiness == "" {
		if r, err := a.t.Readiness(octx); err == nil {
			a.readiness = r
		}
	}
}

// originOf keeps only the scheme and host of a URL the authority does not
// reach.
func originOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return ""
	}
	return (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: "/"}).String()
}

// receipt completes a receipt with what the action caused.
func (a *act) receipt(r language.Act) language.Act {
	r.Host = a.host
	if a.landing != nil {
		r.Landing, r.LandingTitle, r.LandingDenied = a.landing.URL, a.landing.Title, a.denied
	}
	r.Opened = a.opened
	if a.dialog != nil {
		r.Dialog = a.dialog.Type
	}
	r.Loading = a.res.Loading && a.dialog == nil
	r.Pending = a.res.Pending && a.dialog == nil
	return r
}

// outcome turns the action into its envelope outcome. ref is the refusal
// that ended it (nil when it completed); safe says whether the completed
// action is safe to repeat; what names the input for an unknown result
// ("the click").
func (a *act) outcome(tool string, ref *surface.Refusal, r language.Act, safe bool, timeoutMs int, what string) surface.Outcome {
	limit := strconv.Itoa(timeoutOr(timeoutMs))
	ref = a.unnamed(ref)
	if ref != nil && ref.Reason == surface.ReasonTimeout {
		ref.Limit = limit
	}
	if !a.dispatched() {
		if ref != nil {
			return refused(ref)
		}
		rec := a.receipt(r)
		return done(language.Say(language.Action(rec), language.ActionSteps(rec)...), a.readiness, surface.EffectNone, true)
	}
	rec := a.receipt(r)
	if a.dialog != nil && (ref == nil || ref.Reason == surface.ReasonDialogBlocking) {
		// The dialog proves the input reached the page (its acknowledgement
		// waits behind the dialog, so the input alone reads unknown). The
		// call did what it was asked: it succeeded, and the page now shows
		// a dialog, which the facts name and the next step answers. Only an
		// input cut part way by the dialog is blocked.
		eff := a.eff
		if eff == surface.EffectUnknown {
			eff = surface.EffectApplied
		}
		out := surface.Outcome{Status: surface.StatusSucceeded, Effect: eff, Readiness: readinessOf(a.readiness),
			Summary: language.Action(rec), NextSteps: language.ActionSteps(rec)}
		if eff != surface.EffectApplied {
			out.Status = surface.StatusBlocked
			out.Refusal = &surface.Refusal{Reason: surface.ReasonDialogBlocking, DialogType: surface.DialogType(a.dialog.Type)}
		}
		return out
	}
	if ref != nil {
		out := surface.Outcome{Effect: a.eff, Readiness: readinessOf(a.readiness), Refusal: ref}
		var t language.Text
		switch {
		case ref.Reason == surface.ReasonTabCrashed || ref.Reason == surface.ReasonBrowserUnavailable:
			// The page or the browser died under the action: say that (what
			// reached the page before may stand; the effect says unknown).
			out.Status = surface.StatusFailed
			t = language.Refusal(tool, ref)
		case a.eff == surface.EffectUnknown || ref.Reason == surface.ReasonTimeout:
			out.Status = surface.StatusUnknown
			t = language.ActionUnknown(tool, what, limit)
		default:
			out.Status = surface.StatusFailed
			t = language.ActionPartial(tool, language.Action(rec), ref)
		}
		out.Summary, out.NextSteps = t.Summary, t.NextSteps
		return out
	}
	eff := a.eff
	safe = safe && eff == surface.EffectApplied && a.landing == nil && len(a.opened) == 0
	return done(language.Say(language.Action(rec), language.ActionSteps(rec)...), a.readiness, eff, safe)
}

func timeoutOr(ms int) int {
	if ms <= 0 {
		return surface.TimeoutMsDefault
	}
	return ms
}

// inputRefusal maps an input error after dispatch began. A dialog that
// cancelled the input is not a refusal: the act reports the dialog.
func inputRefusal(ctx context.Context, err error, timeoutMs int) *surface.Refusal {
	if r := guarded(err); r != nil {
		return r // the key guard's refusal (keyguard.go)
	}
	if err == nil || errors.Is(context.Cause(ctx), browser.ErrDialogOpened) {
		return nil
	}
	return refusalFor(err, timeoutOr(timeoutMs))
}

// fail maps the error of a page call made once the action began changing
// the page (setting a value, focusing, scrolling). A dialog the page opened
// in response proves the change happened: the act reports it instead.
func (a *act) fail(ctx context.Context, err error, timeoutMs int) *surface.Refusal {
	if errors.Is(context.Cause(ctx), browser.ErrDialogOpened) {
		a.note(surface.EffectApplied)
		return nil
	}
	return refusalFor(err, timeoutOr(timeoutMs))
}

// landingOf and openedOf copy what an action caused into its facts.
func (a *act) landingOf() *surface.Landing {
	if a == nil {
		return nil
	}
	return a.landing
}

// unlistClosed leaves out of the opened tabs the popups this result says
// were closed: one closed between observe and the wording is not both.
func (a *act) unlistClosed(popups []browser.Blocked) {
	for _, b := range popups {
		if b.Popup == "" {
			continue
		}
		for i, h := range a.opened {
			if h == b.Popup {
				a.opened = append(a.opened[:i:i], a.opened[i+1:]...)
				break
			}
		}
	}
}

func (a *act) openedOf() []string {
	if a == nil {
		return nil
	}
	return a.opened
}

// dialogOf is the type of the dialog the action's page opened ("" none),
// for the dialog_type fact.
func (a *act) dialogOf() surface.DialogType {
	if a == nil || a.dialog == nil {
		return ""
	}
	return surface.DialogType(a.dialog.Type)
}

// perform runs fn on the held tab (host admitted, no dialog open, a dialog
// opening cancels fn's context) and finishes the act it builds. The act is
// returned even when the call was refused before it started (then it
// dispatched nothing).
func (s *session) perform(ctx context.Context, t *browser.Tab, fn func(ctx context.Context, a *act) *surface.Refusal) (*act, *surface.Refusal) {
	a := &act{s: s, t: t, call: ctx, eff: surface.EffectNone, host: language.Host(t.URL())}
	ref := s.onTabSaying(ctx, t, func(g context.Context) *surface.Refusal {
		*a = *s.newAct(ctx, t)
		r := fn(g, a)
		a.finish(g)
		if a.settled != nil && r == nil && g.Err() == nil && a.dialog == nil {
			a.settled(g)
		}
		if errors.Is(context.Cause(g), browser.ErrDialogOpened) {
			// onTab reports the dialog; the act says what reached the page.
			return nil
		}
		return r
	}, a.unlistClosed)
	if ref != nil && ref.Reason == surface.ReasonActionConfirm && a.asking != nil {
		s.ask(ctx, t, ref, handoffConfirm, a.asking) // the person answers (confirm.go)
	}
	if ref != nil && ref.Reason == surface.ReasonDialogBlocking && a.dispatched() {
		// onTab saw the dialog the action opened; the act reports it.
		if a.dialog == nil {
			if d, open := t.Dialog(); open {
				a.dialog = &d
			}
		}
		ref = nil
	}
	return a, ref
}

// closedBarrier is a download barrier already passed.
var closedBarrier = func() <-chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}()
