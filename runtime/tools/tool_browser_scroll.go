package tools

import (
	"context"
	"errors"
	"math"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/action"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
	"github.com/ghostlight-dev/ghostlight/runtime/refusal"
)

// scrollFraction is how far an amount scrolls, as a fraction of the viewport
// along the direction (spec: scroll_amount_permille).
func scrollFraction(amount string) float64 {
	return float64(surface.ScrollAmountPermille[amount]) / 1000
}

// BrowserScroll reveals a target, scrolls the page by an amount, or turns
// the mouse wheel at a point of a current view.
func (h *Handler) BrowserScroll(ctx context.Context, a *surface.BrowserScrollArgs) (*surface.BrowserScrollFacts, surface.Outcome) {
	s := h.session(ctx)
	ctx, cancel := deadline(ctx, a.TimeoutMs)
	defer cancel()
	t, ref := s.tabFor(ctx, a.Tab, a.Target, a.View)
	if ref != nil {
		return nil, refused(ref)
	}
	f := &surface.BrowserScrollFacts{Tab: t.Handle(), Target: a.Target}
	rec := language.Act{}
	ac, ref := s.perform(ctx, t, func(ctx context.Context, ac *act) *surface.Refusal {
		switch a.Branch() {
		case surface.BrowserScrollBranchReveal:
			return ac.reveal(ctx, a, f, &rec)
		case surface.BrowserScrollBranchWheel:
			return ac.wheel(ctx, a, f, &rec)
		}
		return ac.scrollBy(ctx, a, f, &rec)
	})
	f.DialogType = ac.dialogOf()
	return f, ac.outcome("browser_scroll", ref, rec, true, a.TimeoutMs, language.WhatScroll)
}

func (ac *act) reveal(ctx context.Context, a *surface.BrowserScrollArgs, f *surface.BrowserScrollFacts, rec *language.Act) *surface.Refusal {
	pointer := locator(a.Selector, "/target", "/selector")
	id, r := ac.resolve(ctx, a.Target, a.Selector, pointer)
	if r != nil {
		return r
	}
	p, err := ac.x.Reveal(ctx, id)
	var se *action.StepError
	switch {
	case errors.As(err, &se) && se.Step == action.StepReady: // not rendered, and never was within the time
		return ac.readyRefusal(se.Err, func(int) string { return pointer })
	case errors.As(err, &se):
		return refusal.For(se.Err, a.TimeoutMs)
	case err != nil:
		if errors.Is(context.Cause(ctx), browser.ErrDialogOpened) {
			ac.note(surface.EffectApplied) // a scroll handler answered with a dialog
			return nil
		}
		r := refusal.For(err, 0)
		if r.Reason == surface.ReasonStaleTarget {
			r.Pointer = pointer
		}
		return r
	}
	el := ac.element(p.Role, p.Name)
	f.Scrolled, f.ScrollX, f.ScrollY = p.Scrolled, px(*p.ScrollX), px(*p.ScrollY)
	obj := language.Target(el, ac.s.h.names)
	if p.Scrolled {
		ac.note(surface.EffectApplied)
	}
	rec.Verb, rec.Object = language.Revealed(obj, p.Scrolled)
	rec.Tail = language.ScrollPosition(f.ScrollX, f.ScrollY)
	return nil
}

// scrollUnits are the directions of a scroll as unit steps along x and y.
var scrollUnits = map[string][2]float64{"up": {0, -1}, "down": {0, 1}, "left": {-1, 0}, "right": {1, 0}}

func (ac *act) scrollBy(ctx context.Context, a *surface.BrowserScrollArgs, f *surface.BrowserScrollFacts, rec *language.Act) *surface.Refusal {
	u, ok := scrollUnits[a.Direction]
	if !ok {
		u = scrollUnits["down"]
	}
	off, err := ac.x.ScrollBy(ctx, u[0], u[1], scrollFraction(a.Amount))
	var se *action.StepError
	switch {
	case errors.As(err, &se):
		return refusal.For(se.Err, a.TimeoutMs)
	case err != nil:
		return ac.fail(ctx, err, a.TimeoutMs)
	}
	f.Scrolled, f.ScrollX, f.ScrollY = off.Scrolled, px(off.X), px(off.Y)
	if off.Scrolled {
		ac.note(surface.EffectApplied)
	}
	rec.Verb = language.ScrolledBy(off.Container, a.Direction, a.Amount, off.Scrolled)
	rec.Tail = language.ScrollPosition(f.ScrollX, f.ScrollY)
	return nil
}

func (ac *act) wheel(ctx context.Context, a *surface.BrowserScrollArgs, f *surface.BrowserScrollFacts, rec *language.Act) *surface.Refusal {
	pt, r := ac.viewPoint(ctx, a.View, *a.X, *a.Y, "/view")
	if r != nil {
		return r
	}
	ticks := *a.Ticks
	before, after, err := ac.x.Wheel(ctx, ac.keyGuard(), pt, ticks, a.Direction == "up")
	var se *action.StepError
	if errors.As(err, &se) {
		return refusal.For(se.Err, a.TimeoutMs)
	}
	if r := inputRefusal(ctx, err, a.TimeoutMs); r != nil || err != nil {
		return r
	}
	f.Scrolled, f.ScrollX, f.ScrollY = after.X != before.X || after.Y != before.Y, px(after.X), px(after.Y)
	rec.Verb = language.Wheeled(ticks, a.Direction == "up")
	rec.Object = language.At(*a.X, *a.Y, a.View)
	if !f.Scrolled {
		rec.Tail = language.NothingScrolled
	} else {
		rec.Tail = language.ScrollPosition(f.ScrollX, f.ScrollY)
	}
	return nil
}

func px(v float64) int { return int(math.Round(v)) }
