package act

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/action"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/capture"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/input"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
	"github.com/ghostlight-dev/ghostlight/runtime/handoff"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
	"github.com/ghostlight-dev/ghostlight/runtime/refusal"
	"github.com/ghostlight-dev/ghostlight/runtime/tools/outcome"
)

// Session is what an act needs of the call's session (runtime/tools).
type Session interface {
	// Element resolves a target handle or selector on t to a live element id, waiting until deadline.
	Element(ctx context.Context, t *browser.Tab, target string, sel *surface.Selector, pointer string, deadline time.Time) (int, *surface.Refusal)
	// View is the tab and geometry of a view handle, or the refusal of a handle the session does not hold.
	View(handle, pointer string) (tab string, v capture.View, r *surface.Refusal)
	// World is the isolated world of t's current page.
	World(t *browser.Tab) *pagejs.World
	// Workspace is the session's browser workspace.
	Workspace() *browser.Workspace
	// NamesOn reports whether the call under ctx may name the elements it touches.
	NamesOn(ctx context.Context) bool
	// Person is what waits on the person: handoffs and confirmation answers.
	Person() *handoff.Store
	// Handoff opens t's credential handoff for the stop r, r gaining where to complete it.
	Handoff(ctx context.Context, t *browser.Tab, r *surface.Refusal)
	// Ask opens t's handoff of kind for r; answer records the person's answer (nil: none).
	Ask(ctx context.Context, t *browser.Tab, r *surface.Refusal, kind string, answer func(string))
	// Holding admits t's page and runs hold holding t, said getting the popups its result says were closed.
	Holding(ctx context.Context, t *browser.Tab, said func([]browser.Blocked), hold func(ctx context.Context) (*surface.Refusal, error)) *surface.Refusal
}

// Act is one action on a held tab: the executor's action (x, set once
// the tab is held) and what the handler made of its result.
type Act struct {
	s    Session
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

// Tab is the tab the act holds.
func (a *Act) Tab() *browser.Tab { return a.t }

// World is the isolated world of the held tab's page.
func (a *Act) World() *pagejs.World { return a.w }

// Action is the executor's action (runtime/browser/action).
func (a *Act) Action() *action.Action { return a.x }

// Call is the call's own context (not dialog-guarded).
func (a *Act) Call() context.Context { return a.call }

// Dialog is the dialog the action's page opened (nil: none).
func (a *Act) Dialog() *browser.DialogState { return a.dialog }

// Readiness is the page's readiness once the action settled.
func (a *Act) Readiness() string { return a.readiness }

// Element is the element an action hit, as its receipt names it: its name
// withheld when names are not preserved.
func (a *Act) Element(role, name string) *language.Acted {
	e := &language.Acted{Role: language.Role(role)}
	if a.Names() {
		e.Name = language.Name(name)
	}
	return e
}

// Resolve turns a target handle or selector into a live element id.
func (a *Act) Resolve(ctx context.Context, target string, sel *surface.Selector, pointer string) (int, *surface.Refusal) {
	id, r := a.s.Element(ctx, a.t, target, sel, pointer, pagejs.ActionDeadline(ctx))
	if r != nil {
		if r.Pointer == "" && (r.Reason == surface.ReasonStaleTarget || r.Reason == surface.ReasonTargetNotFound || r.Reason == surface.ReasonTargetAmbiguous) {
			r.Pointer = pointer
		}
	}
	return id, r
}

// Locate resolves a target or selector and returns the verified point to
// press and the element there, from the same page round trip.
func (a *Act) Locate(ctx context.Context, target string, sel *surface.Selector, pointer string, opt pagejs.LocateOptions) (input.Point, *language.Acted, pagejs.Point, *surface.Refusal) {
	id, r := a.Resolve(ctx, target, sel, pointer)
	if r != nil {
		return input.Point{}, nil, pagejs.Point{}, r
	}
	return a.LocateID(ctx, id, pointer, opt)
}

// LocateID is Locate for an element already resolved. It waits, frame by
// frame within the call's timeout, for the element to be able to take the
// action (pagejs.AwaitActionable).
func (a *Act) LocateID(ctx context.Context, id int, pointer string, opt pagejs.LocateOptions) (input.Point, *language.Acted, pagejs.Point, *surface.Refusal) {
	pt, p, err := a.x.Locate(ctx, id, opt)
	if err != nil {
		r := refusal.For(err, 0)
		if r.Reason == surface.ReasonStaleTarget {
			r.Pointer = pointer
		}
		return input.Point{}, nil, p, r
	}
	return pt, a.Element(p.Role, p.Name), p, nil
}

// ViewPoint maps image pixel (x, y) of a view to input coordinates, refusing
// a view whose binding is no longer current before anything is dispatched.
func (a *Act) ViewPoint(ctx context.Context, view string, x, y int, pointer string) (input.Point, *surface.Refusal) {
	tab, v, r := a.s.View(view, pointer)
	if r != nil {
		return input.Point{}, r
	}
	if tab != a.t.Handle() {
		return input.Point{}, &surface.Refusal{Reason: surface.ReasonInvalidArguments, Pointer: pointer, Message: language.MsgViewOtherTab}
	}
	// The model names a pixel; its centre is the point.
	pt, fault, err := a.x.ViewPoint(ctx, v, float64(x)+0.5, float64(y)+0.5)
	switch {
	case err != nil:
		return input.Point{}, refusal.For(err, 0)
	case fault == action.ViewStale:
		return input.Point{}, &surface.Refusal{Reason: surface.ReasonStaleView, Pointer: pointer}
	case fault == action.ViewOutside:
		return input.Point{}, &surface.Refusal{Reason: surface.ReasonRegionOutside, Pointer: pointer,
			Message: language.ViewPointOutside(x, y, v.ImageWidth, v.ImageHeight)}
	case fault == action.ViewHidden:
		return input.Point{}, &surface.Refusal{Reason: surface.ReasonRegionOutside, Pointer: pointer,
			Message: language.ViewPointHidden(x, y)}
	}
	return pt, nil
}

// Arm, ArmAhead, Note, Cut and Effect are the executor action's (runtime/browser/action).
func (a *Act) Arm(ctx context.Context)      { a.x.Arm(ctx) }
func (a *Act) ArmAhead(ctx context.Context) { a.x.ArmAhead(ctx) }
func (a *Act) Note(e surface.Effect)        { a.x.Note(e) }
func (a *Act) Cut(ctx context.Context)      { a.x.Cut(ctx) }
func (a *Act) Effect() surface.Effect       { return a.x.Effect() }

// Dispatch runs one input operation under the act's key guard (keyguard.go).
func (a *Act) Dispatch(ctx context.Context, fn func(ctx context.Context) (input.Effect, error)) error {
	return a.x.Dispatch(ctx, a.KeyGuard(), fn)
}

// Dispatched reports whether anything may have reached the page.
func (a *Act) Dispatched() bool { return a != nil && a.x.Dispatched() }

// take reads the executor's result: the landing governed (a host outside
// the authority shows its origin only, its title withheld).
func (a *Act) take(r action.Result) {
	a.loading, a.pending = r.Settle.Loading, r.Settle.Pending
	a.dialog, a.opened, a.readiness = r.Dialog, r.Opened, r.Readiness
	if l := r.Landing; l != nil {
		a.landing = &surface.Landing{URL: outcome.URL(l.URL), Title: outcome.Title(l.Title), DocumentGeneration: int(l.Generation)}
		if inv := pipeline.FromContext(a.call); inv != nil {
			if shown, withheld := inv.Authority.Shown(l.URL); withheld {
				a.denied = true
				a.landing.URL, a.landing.Title = outcome.URL(shown), "" // origin only; title withheld
			}
		}
	}
}

// Receipt completes a receipt with what the action caused.
func (a *Act) Receipt(r language.Act) language.Act {
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

// Outcome turns the action into its envelope outcome. ref is the refusal
// that ended it (nil when it completed); safe says whether the completed
// action is safe to repeat; what names the input for an unknown result
// ("the click").
func (a *Act) Outcome(tool string, ref *surface.Refusal, r language.Act, safe bool, timeoutMs int, what string) surface.Outcome {
	limit := strconv.Itoa(outcome.Timeout(timeoutMs))
	ref = a.unnamed(ref)
	if ref != nil && ref.Reason == surface.ReasonTimeout {
		ref.Limit = limit
	}
	if !a.Dispatched() {
		if ref != nil {
			return outcome.Refused(ref)
		}
		rec := a.Receipt(r)
		return outcome.Done(language.Say(language.Action(rec), language.ActionSteps(rec)...), a.readiness, surface.EffectNone, true)
	}
	rec := a.Receipt(r)
	if a.dialog != nil && (ref == nil || ref.Reason == surface.ReasonDialogBlocking) {
		// The dialog proves the input reached the page (its acknowledgement
		// waits behind the dialog, so the input alone reads unknown). The
		// call did what it was asked: it succeeded, and the page now shows
		// a dialog, which the facts name and the next step answers. Only an
		// input cut part way by the dialog is blocked.
		eff := a.Effect()
		if eff == surface.EffectUnknown {
			eff = surface.EffectApplied
		}
		out := surface.Outcome{Status: surface.StatusSucceeded, Effect: eff, Readiness: outcome.Readiness(a.readiness),
			Summary: language.Action(rec), NextSteps: language.ActionSteps(rec)}
		if eff != surface.EffectApplied {
			out.Status = surface.StatusBlocked
			out.Refusal = &surface.Refusal{Reason: surface.ReasonDialogBlocking, DialogType: surface.DialogType(a.dialog.Type)}
		}
		return out
	}
	if ref != nil {
		out := surface.Outcome{Effect: a.Effect(), Readiness: outcome.Readiness(a.readiness), Refusal: ref}
		var t language.Text
		switch {
		case ref.Reason == surface.ReasonTabCrashed || ref.Reason == surface.ReasonBrowserUnavailable:
			// The page or the browser died under the action: say that (what
			// reached the page before may stand; the effect says unknown).
			out.Status = surface.StatusFailed
			t = language.Refusal(tool, ref)
		case a.Effect() == surface.EffectUnknown || ref.Reason == surface.ReasonTimeout:
			out.Status = surface.StatusUnknown
			t = language.ActionUnknown(tool, what, limit)
		default:
			out.Status = surface.StatusFailed
			t = language.ActionPartial(tool, language.Action(rec), ref)
		}
		out.Summary, out.NextSteps = t.Summary, t.NextSteps
		return out
	}
	eff := a.Effect()
	safe = safe && eff == surface.EffectApplied && a.landing == nil && len(a.opened) == 0
	return outcome.Done(language.Say(language.Action(rec), language.ActionSteps(rec)...), a.readiness, eff, safe)
}

// InputRefusal maps an input error after dispatch began. A dialog that
// cancelled the input is not a refusal: the act reports the dialog.
func InputRefusal(ctx context.Context, err error, timeoutMs int) *surface.Refusal {
	if r := guarded(err); r != nil {
		return r // the key guard's refusal (keyguard.go)
	}
	if err == nil || errors.Is(context.Cause(ctx), browser.ErrDialogOpened) {
		return nil
	}
	return refusal.For(err, outcome.Timeout(timeoutMs))
}

// Fail maps the error of a page call made once the action began changing
// the page (setting a value, focusing, scrolling). A dialog the page opened
// in response proves the change happened: the act reports it instead.
func (a *Act) Fail(ctx context.Context, err error, timeoutMs int) *surface.Refusal {
	if errors.Is(context.Cause(ctx), browser.ErrDialogOpened) {
		a.Note(surface.EffectApplied)
		return nil
	}
	return refusal.For(err, outcome.Timeout(timeoutMs))
}

// Landing and Opened copy what an action caused into its facts.
func (a *Act) Landing() *surface.Landing {
	if a == nil {
		return nil
	}
	return a.landing
}

// unlistClosed leaves out of the opened tabs the popups this result says
// were closed: one closed between observe and the wording is not both.
func (a *Act) unlistClosed(popups []browser.Blocked) {
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

func (a *Act) Opened() []string {
	if a == nil {
		return nil
	}
	return a.opened
}

// DialogType is the type of the dialog the action's page opened ("" none),
// for the dialog_type fact.
func (a *Act) DialogType() surface.DialogType {
	if a == nil || a.dialog == nil {
		return ""
	}
	return surface.DialogType(a.dialog.Type)
}

// Perform runs fn on the held tab t of the session s (host admitted, no dialog open, a dialog
// opening cancels fn's context) through the executor's action lifecycle
// (action.Run: arm, dispatch, settle, observe) and reads its result. The act
// is returned even when the call was refused before it started (then it
// dispatched nothing).
func Perform(ctx context.Context, s Session, t *browser.Tab, fn func(ctx context.Context, a *Act) *surface.Refusal) (*Act, *surface.Refusal) {
	a := &Act{s: s, t: t, call: ctx, host: language.Host(t.URL())}
	ref := s.Holding(ctx, t, a.unlistClosed, func(hctx context.Context) (*surface.Refusal, error) {
		var ref *surface.Refusal
		res, err := action.Run(hctx, t, action.Setup{World: s.World, Workspace: s.Workspace(), Call: ctx}, func(g context.Context, x *action.Action) {
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
		return Held(ref, res.Cause, res.Gone, res.Blocking), nil
	})
	if ref != nil && ref.Reason == surface.ReasonActionConfirm && a.asking != nil {
		s.Ask(ctx, t, ref, handoff.KindConfirm, a.asking) // the person answers (confirm.go)
	}
	if ref != nil && ref.Reason == surface.ReasonDialogBlocking && a.Dispatched() {
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

// Held is fn's refusal read against why its held context ended
// (cause), the tab's or browser's end (gone) and the dialog a dialog's
// opening left blocking the page.
func Held(ref *surface.Refusal, cause, gone error, blocking *browser.DialogState) *surface.Refusal {
	switch {
	case gone != nil:
		// The tab crashed or the browser went away under fn: say that, not
		// what fn saw of it (a timeout, a condition that did not hold).
		return refusal.For(cause, 0)
	case cause == browser.ErrDialogOpened && (ref == nil || ref.Reason == surface.ReasonInternal || ref.Reason == surface.ReasonTimeout):
		// A dialog that opened mid-call blocks the page: that is why fn
		// stopped, whatever its own error said.
		if blocking != nil {
			return &surface.Refusal{Reason: surface.ReasonDialogBlocking, DialogType: surface.DialogType(blocking.Type)}
		}
	}
	return ref
}
