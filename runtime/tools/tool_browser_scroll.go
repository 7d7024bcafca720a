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
	"github.com/ghostlight-dev/ghostlight/runtime/tools/act"
	"github.com/ghostlight-dev/ghostlight/runtime/tools/outcome"
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
		return nil, outcome.Refused(ref)
	}
	f := &surface.BrowserScrollFacts{Tab: t.Handle(), Target: a.Target}
	rec := language.Act{}
	ac, ref := act.Perform(ctx, s, t, func(ctx context.Context, ac *act.Act) *surface.Refusal {
		switch a.Branch() {
		case surface.BrowserScrollBranchReveal:
			return s.reveal(ctx, ac, a, f, &rec)
		case surface.BrowserScrollBranchWheel:
			return wheel(ctx, ac, a, f, &rec)
		}
		return scrollBy(ctx, ac, a, f, &rec)
	})
	f.DialogType = ac.DialogType()
	return f, ac.Outcome("browser_scroll", ref, rec, true, a.TimeoutMs, language.WhatScroll)
}

func (s *session) reveal(ctx context.Context, ac *act.Act, a *surface.BrowserScrollArgs, f *surface.BrowserScrollFacts, rec *language.Act) *surface.Refusal {
	pointer := locator(a.Selector, "/target", "/selector")
	id, r := ac.Resolve(ctx, a.Target, a.Selector, pointer)
	if r != nil {
		return r
	}
	p, err := ac.Action().Reveal(ctx, id)
	var se *action.StepError
	switch {
	case errors.As(err, &se) && se.Step == action.StepReady: // not rendered, and never was within the time
		return ac.ReadyRefusal(se.Err, func(int) string { return pointer })
	case errors.As(err, &se):
		return refusal.For(se.Err, a.TimeoutMs)
	case err != nil:
		if errors.Is(context.Cause(ctx), browser.ErrDialogOpened) {
			ac.Note(surface.EffectApplied) // a scroll handler answered with a dialog
			return nil
		}
		r := refusal.For(err, 0)
		if r.Reason == surface.ReasonStaleTarget {
			r.Pointer = pointer
		}
		return r
	}
	el := ac.Element(p.Role, p.Name)
	f.Scrolled, f.ScrollX, f.ScrollY = p.Scrolled, px(*p.ScrollX), px(*p.ScrollY)
	obj := language.Target(el, s.h.names)
	if p.Scrolled {
		ac.Note(surface.EffectApplied)
	}
	rec.Verb, rec.Object = language.Revealed(obj, p.Scrolled)
	rec.Tail = language.ScrollPosition(f.ScrollX, f.ScrollY)
	return nil
}

// scrollUnits are the directions of a scroll as unit steps along x and y.
var scrollUnits = map[string][2]float64{"up": {0, -1}, "down": {0, 1}, "left": {-1, 0}, "right": {1, 0}}

func scrollBy(ctx context.Context, ac *act.Act, a *surface.BrowserScrollArgs, f *surface.BrowserScrollFacts, rec *language.Act) *surface.Refusal {
	u, ok := scrollUnits[a.Direction]
	if !ok {
		u = scrollUnits["down"]
	}
	off, err := ac.Action().ScrollBy(ctx, u[0], u[1], scrollFraction(a.Amount))
	var se *action.StepError
	switch {
	case errors.As(err, &se):
		return refusal.For(se.Err, a.TimeoutMs)
	case err != nil:
		return ac.Fail(ctx, err, a.TimeoutMs)
	}
	f.Scrolled, f.ScrollX, f.ScrollY = off.Scrolled, px(off.X), px(off.Y)
	if off.Scrolled {
		ac.Note(surface.EffectApplied)
	}
	rec.Verb = language.ScrolledBy(off.Container, a.Direction, a.Amount, off.Scrolled)
	rec.Tail = language.ScrollPosition(f.ScrollX, f.ScrollY)
	return nil
}

func wheel(ctx context.Context, ac *act.Act, a *surface.BrowserScrollArgs, f *surface.BrowserScrollFacts, rec *language.Act) *surface.Refusal {
	pt, r := ac.ViewPoint(ctx, a.View, *a.X, *a.Y, "/view")
	if r != nil {
		return r
	}
	ticks := *a.Ticks
	before, after, err := ac.Action().Wheel(ctx, ac.KeyGuard(), pt, ticks, a.Direction == "up")
	var se *action.StepError
	if errors.As(err, &se) {
		return refusal.For(se.Err, a.TimeoutMs)
	}
	if r := act.InputRefusal(ctx, err, a.TimeoutMs); r != nil || err != nil {
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
