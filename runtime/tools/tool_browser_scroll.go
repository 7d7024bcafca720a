package tools

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/input"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
)

// scrollFraction is how far an amount scrolls, as a fraction of the viewport
// along the direction (spec: scroll_amount_permille).
func scrollFraction(amount string) float64 {
	return float64(surface.ScrollAmountPermille[amount]) / 1000
}

// wheelTickPx is one wheel tick's delta in CSS px (spec: wheel_tick_px).
const wheelTickPx = surface.WheelTickPxMax

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
	return f, ac.outcome("browser_scroll", ref, rec, true, a.TimeoutMs, "the scroll")
}

func (ac *act) reveal(ctx context.Context, a *surface.BrowserScrollArgs, f *surface.BrowserScrollFacts, rec *language.Act) *surface.Refusal {
	pointer := locator(a.Selector, "/target", "/selector")
	id, r := ac.resolve(ctx, a.Target, a.Selector, pointer)
	if r != nil {
		return r
	}
	if ac.w.Local(id) { // the reveal is page code on the tab's own session
		ac.armAhead(ctx)
	} else {
		ac.arm(ctx)
	}
	// The reveal brings the element into view only when it is not, and names
	// it; it runs to its end in its own task, so the quiet probe can go right
	// behind it (Watch.Behind).
	mark := ac.x.Behind(ctx)
	p, err := pagejs.Reveal(ctx, ac.w, id, mark)
	if err == nil && mark != "" {
		ac.x.KeepBehind()
	}
	if pagejs.KindOf(err) == pagejs.KindHidden {
		// Not rendered yet: wait for it as actions do (actionable.go), then reveal.
		if r := ac.readyToReveal(ctx, id, pointer); r != nil {
			return r
		}
		p, err = pagejs.Reveal(ctx, ac.w, id, "")
	}
	if err != nil {
		if errors.Is(context.Cause(ctx), browser.ErrDialogOpened) {
			ac.note(surface.EffectApplied) // a scroll handler answered with a dialog
			return nil
		}
		r := refusalFor(err, 0)
		if r.Reason == surface.ReasonStaleTarget {
			r.Pointer = pointer
		}
		return r
	}
	el := ac.element(p.Role, p.Name)
	if p.ScrollX == nil || p.ScrollY == nil { // a frame's element: read the page's offsets
		m, err := pagejs.Metrics(ctx, ac.w)
		if err != nil {
			return refusalFor(err, a.TimeoutMs)
		}
		p.ScrollX, p.ScrollY = &m.ScrollX, &m.ScrollY
	}
	f.Scrolled, f.ScrollX, f.ScrollY = p.Scrolled, px(*p.ScrollX), px(*p.ScrollY)
	obj := language.Target(el, ac.s.h.names)
	if p.Scrolled {
		ac.note(surface.EffectApplied)
		rec.Verb, rec.Object = "Scrolled", obj+" into view"
	} else {
		rec.Verb, rec.Object = "Found", obj+" already in view"
	}
	rec.Tail = offsetsSentence(f)
	return nil
}

func (ac *act) scrollBy(ctx context.Context, a *surface.BrowserScrollArgs, f *surface.BrowserScrollFacts, rec *language.Act) *surface.Refusal {
	m, err := pagejs.Metrics(ctx, ac.w)
	if err != nil {
		return refusalFor(err, a.TimeoutMs)
	}
	frac := scrollFraction(a.Amount)
	var dx, dy float64
	switch a.Direction {
	case "up":
		dy = -frac * m.ViewportHeight
	case "left":
		dx = -frac * m.ViewportWidth
	case "right":
		dx = frac * m.ViewportWidth
	default:
		dy = frac * m.ViewportHeight
	}
	ac.armAhead(ctx) // page code of the main document's world
	off, err := pagejs.ScrollBy(ctx, ac.w, math.Round(dx), math.Round(dy))
	if err != nil {
		return ac.fail(ctx, err, a.TimeoutMs)
	}
	f.Scrolled, f.ScrollX, f.ScrollY = off.Scrolled, px(off.X), px(off.Y)
	what := "the page"
	if off.Container {
		what = "the scrolling pane"
	}
	if off.Scrolled {
		ac.note(surface.EffectApplied)
		rec.Verb = fmt.Sprintf("Scrolled %s %s by a %s step", what, a.Direction, a.Amount)
	} else {
		rec.Verb = fmt.Sprintf("Found no room to scroll %s %s", what, a.Direction)
	}
	rec.Tail = offsetsSentence(f)
	return nil
}

func (ac *act) wheel(ctx context.Context, a *surface.BrowserScrollArgs, f *surface.BrowserScrollFacts, rec *language.Act) *surface.Refusal {
	pt, r := ac.viewPoint(ctx, a.View, *a.X, *a.Y, "/view")
	if r != nil {
		return r
	}
	zf := float64(ac.t.ZoomPercent()) / 100
	css := input.Point{X: pt.X / zf, Y: pt.Y / zf}
	before, err := offsetsAt(ctx, ac, css)
	if err != nil {
		return refusalFor(err, a.TimeoutMs)
	}
	dy := float64(wheelTickPx)
	if a.Direction == "up" {
		dy = -dy
	}
	ticks := *a.Ticks
	// One event carries every tick, as a fast spin coalesces: Chromium
	// scrolls for the first of several back-to-back synthetic wheel events
	// only (measured), so separate events would under-scroll.
	err = ac.dispatch(ctx, func(ctx context.Context) (input.Effect, error) {
		return input.Wheel(ctx, ac.t.Page(), pt, 0, dy*float64(ticks))
	})
	if r := inputRefusal(ctx, err, a.TimeoutMs); r != nil || err != nil {
		return r
	}
	goal := min(max(before.Y+dy*float64(ticks), 0), max(before.MaxY, 0))
	after := pagejs.FollowWheel(ctx, ac.w, css.X, css.Y, before, goal)
	f.Scrolled, f.ScrollX, f.ScrollY = after.X != before.X || after.Y != before.Y, px(after.X), px(after.Y)
	dir := "down"
	if dy < 0 {
		dir = "up"
	}
	rec.Verb = fmt.Sprintf("Turned the wheel %s %s at", language.Plural(ticks, "tick", "ticks"), dir)
	rec.Object = language.At(*a.X, *a.Y, a.View)
	if !f.Scrolled {
		rec.Tail = "Nothing scrolled."
	} else {
		rec.Tail = offsetsSentence(f)
	}
	return nil
}

// offsets are the scroll offsets of what a wheel at a point scrolls.
type offsets = pagejs.WheelOffsets

func offsetsAt(ctx context.Context, ac *act, css input.Point) (offsets, error) {
	return pagejs.WheelOffsetsAt(ctx, ac.w, css.X, css.Y)
}

func px(v float64) int { return int(math.Round(v)) }

func offsetsSentence(f *surface.BrowserScrollFacts) string {
	return fmt.Sprintf("Scroll position: x %d, y %d.", f.ScrollX, f.ScrollY)
}
