package tools

// Shared action plumbing: resolve where an action lands (a target, a
// selector, or a point of a current view), dispatch its input, settle, and
// turn what happened into one truthful outcome and receipt.

import (
	"context"
	"errors"
	"strconv"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/action"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/input"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
	"github.com/ghostlight-dev/ghostlight/runtime/handoff"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
	"github.com/ghostlight-dev/ghostlight/runtime/refusal"
)

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

// act is one action on a held tab: the executor's action (x, set once
// the tab is held) and what the handler made of its result.
type act struct {
	s    *session
	t    *browser.Tab
	w    *pagejs.World
	x    *action.Action
	host string
	// call is the call's own context (not dialog-guarded).
	call context.Context

	loading   bool // a navigation was still loading when settling stopped
	pending   bool // requests the action started were still in flight then
	dialog    *browser.DialogState
	landing   *surface.Landing
	denied    bool // the landing host is outside the authority
	opened    []string
	readiness string
	// asking records the person's answer to the confirmation the act
	// stopped for (nil: it stopped for none).
	asking func(answer string)
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
	pt, p, err := a.x.Locate(ctx, id, opt)
	if err != nil {
		r := refusal.For(err, 0)
		if r.Reason == surface.ReasonStaleTarget {
			r.Pointer = pointer
		}
		return input.Point{}, nil, p, r
	}
	return pt, a.element(p.Role, p.Name), p, nil
}

// viewPoint maps image pixel (x, y) of a view to input coordinates, refusing
// a view whose binding is no longer current before anything is dispatched.
func (a *act) viewPoint(ctx context.Context, view string, x, y int, pointer string) (input.Point, *surface.Refusal) {
	e := a.s.views.get(view)
	if e == nil {
		return input.Point{}, a.s.views.missing(view, pointer)
	}
	if e.tab != a.t.Handle() {
		return input.Point{}, &surface.Refusal{Reason: surface.ReasonInvalidArguments, Pointer: pointer, Message: language.MsgViewOtherTab}
	}
	// The model names a pixel; its centre is the point.
	pt, fault, err := a.x.ViewPoint(ctx, e.view, float64(x)+0.5, float64(y)+0.5)
	switch {
	case err != nil:
		return input.Point{}, refusal.For(err, 0)
	case fault == action.ViewStale:
		return input.Point{}, &surface.Refusal{Reason: surface.ReasonStaleView, Pointer: pointer}
	case fault == action.ViewOutside:
		return input.Point{}, &surface.Refusal{Reason: surface.ReasonRegionOutside, Pointer: pointer,
			Message: language.ViewPointOutside(x, y, e.view.ImageWidth, e.view.ImageHeight)}
	case fault == action.ViewHidden:
		return input.Point{}, &surface.Refusal{Reason: surface.ReasonRegionOutside, Pointer: pointer,
			Message: language.ViewPointHidden(x, y)}
	}
	return pt, nil
}

// arm, armAhead, note and cut are the executor action's (runtime/browser/action).
func (a *act) arm(ctx context.Context)      { a.x.Arm(ctx) }
func (a *act) armAhead(ctx context.Context) { a.x.ArmAhead(ctx) }
func (a *act) note(e surface.Effect)        { a.x.Note(e) }
func (a *act) cut(ctx context.Context)      { a.x.Cut(ctx) }
func (a *act) effect() surface.Effect       { return a.x.Effect() }

// dispatch runs one input operation under the act's key guard (keyguard.go).
func (a *act) dispatch(ctx context.Context, fn func(ctx context.Context) (input.Effect, error)) error {
	return a.x.Dispatch(ctx, a.keyGuard(), fn)
}

// dispatched reports whether anything may have reached the page.
func (a *act) dispatched() bool { return a != nil && a.x.Dispatched() }

// take reads the executor's result: the landing governed (a host outside
// the authority shows its origin only, its title withheld).
func (a *act) take(r action.Result) {
	a.loading, a.pending = r.Settle.Loading, r.Settle.Pending
	a.dialog, a.opened, a.readiness = r.Dialog, r.Opened, r.Readiness
	if l := r.Landing; l != nil {
		a.landing = &surface.Landing{URL: governedURL(l.URL), Title: title(l.Title), DocumentGeneration: int(l.Generation)}
		if inv := pipeline.FromContext(a.call); inv != nil {
			if shown, withheld := inv.Authority.Shown(l.URL); withheld {
				a.denied = true
				a.landing.URL, a.landing.Title = governedURL(shown), "" // origin only; title withheld
			}
		}
	}
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
	r.Loading = a.loading && a.dialog == nil
	r.Pending = a.pending && a.dialog == nil
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
		eff := a.effect()
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
		out := surface.Outcome{Effect: a.effect(), Readiness: readinessOf(a.readiness), Refusal: ref}
		var t language.Text
		switch {
		case ref.Reason == surface.ReasonTabCrashed || ref.Reason == surface.ReasonBrowserUnavailable:
			// The page or the browser died under the action: say that (what
			// reached the page before may stand; the effect says unknown).
			out.Status = surface.StatusFailed
			t = language.Refusal(tool, ref)
		case a.effect() == surface.EffectUnknown || ref.Reason == surface.ReasonTimeout:
			out.Status = surface.StatusUnknown
			t = language.ActionUnknown(tool, what, limit)
		default:
			out.Status = surface.StatusFailed
			t = language.ActionPartial(tool, language.Action(rec), ref)
		}
		out.Summary, out.NextSteps = t.Summary, t.NextSteps
		return out
	}
	eff := a.effect()
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
	return refusal.For(err, timeoutOr(timeoutMs))
}

// fail maps the error of a page call made once the action began changing
// the page (setting a value, focusing, scrolling). A dialog the page opened
// in response proves the change happened: the act reports it instead.
func (a *act) fail(ctx context.Context, err error, timeoutMs int) *surface.Refusal {
	if errors.Is(context.Cause(ctx), browser.ErrDialogOpened) {
		a.note(surface.EffectApplied)
		return nil
	}
	return refusal.For(err, timeoutOr(timeoutMs))
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
// opening cancels fn's context) through the executor's action lifecycle
// (action.Run: arm, dispatch, settle, observe) and reads its result. The act
// is returned even when the call was refused before it started (then it
// dispatched nothing).
func (s *session) perform(ctx context.Context, t *browser.Tab, fn func(ctx context.Context, a *act) *surface.Refusal) (*act, *surface.Refusal) {
	a := &act{s: s, t: t, call: ctx, host: language.Host(t.URL())}
	ref := s.holding(ctx, t, a.unlistClosed, func(hctx context.Context) (*surface.Refusal, error) {
		var ref *surface.Refusal
		res, err := action.Run(hctx, t, action.Setup{World: s.world, Workspace: s.ws, Call: ctx}, func(g context.Context, x *action.Action) {
			a.x, a.w, a.host = x, x.World(), language.Host(t.URL())
			if ref = fn(g, a); ref != nil {
				x.Settled = nil // read only after an action that did what it was asked
			}
		})
		if err != nil {
			return nil, err
		}
		a.take(res)
		if errors.Is(res.Cause, browser.ErrDialogOpened) {
			// onTab reports the dialog; the act says what reached the page.
			ref = nil
		}
		return heldRefusal(ref, res.Cause, res.Gone, res.Blocking), nil
	})
	if ref != nil && ref.Reason == surface.ReasonActionConfirm && a.asking != nil {
		s.ask(ctx, t, ref, handoff.KindConfirm, a.asking) // the person answers (confirm.go)
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
