package action

import (
	"context"
	"math"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/input"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
)

// Step says which part of an executor step an error came from, where the
// caller words them differently.
type Step int

const (
	// StepRead is a read of the page before anything was dispatched.
	StepRead Step = iota + 1
	// StepReady is the wait for a target not yet rendered.
	StepReady
	// StepClear is clearing a field before typing into it.
	StepClear
	// StepFocus is moving focus to a field to type into.
	StepFocus
)

// StepError is an error of one Step; an error of the action's own page call
// or input is returned as is.
type StepError struct {
	Step Step
	Err  error
}

func (e *StepError) Error() string { return e.Err.Error() }
func (e *StepError) Unwrap() error { return e.Err }

// wheelTickPx is one wheel tick's delta in CSS px.
const wheelTickPx = float64(limits.WheelTickPxMax)

// Reveal brings element id into view when it is not, and names it. The
// reveal runs to its end in its own task, so the settle probe goes right
// behind it. A target not rendered yet is waited for as actions wait
// (rendered and still; disabled or covered, it can still be shown), then
// revealed. The offsets of an element of a frame are the page's, read
// after.
func (a *Action) Reveal(ctx context.Context, id int) (pagejs.Revealed, error) {
	if a.w.Local(id) { // the reveal is page code on the tab's own session
		a.ArmAhead(ctx)
	} else {
		a.Arm(ctx)
	}
	mark := a.Behind(ctx)
	p, err := pagejs.Reveal(ctx, a.w, id, mark)
	if err == nil && mark != "" {
		a.KeepBehind()
	}
	if pagejs.KindOf(err) == pagejs.KindHidden {
		if err := a.Ready(ctx, []int{id}, pagejs.LocateOptions{Keys: true, AllowObscured: true, AllowDisabled: true}); err != nil {
			return p, &StepError{StepReady, err}
		}
		p, err = pagejs.Reveal(ctx, a.w, id, "")
	}
	if err != nil {
		return p, err
	}
	if p.ScrollX == nil || p.ScrollY == nil { // a frame's element: read the page's offsets
		m, err := pagejs.Metrics(ctx, a.w)
		if err != nil {
			return p, &StepError{StepRead, err}
		}
		p.ScrollX, p.ScrollY = &m.ScrollX, &m.ScrollY
	}
	return p, nil
}

// ScrollBy scrolls the page (or its scrolling pane) by frac of the viewport
// along the unit direction (ux, uy), each -1, 0 or 1. An error reading the
// viewport is a StepRead.
func (a *Action) ScrollBy(ctx context.Context, ux, uy, frac float64) (pagejs.Offsets, error) {
	m, err := pagejs.Metrics(ctx, a.w)
	if err != nil {
		return pagejs.Offsets{}, &StepError{StepRead, err}
	}
	dx, dy := ux*frac*m.ViewportWidth, uy*frac*m.ViewportHeight
	a.ArmAhead(ctx) // page code of the main document's world
	return pagejs.ScrollBy(ctx, a.w, math.Round(dx), math.Round(dy))
}

// Wheel turns the wheel ticks ticks (up or down) at input point pt, under
// the key guard, and follows what it scrolls until it reaches its goal or
// stops: the offsets before and after. An error reading the offsets before
// is a StepRead; the input's error is returned as is.
func (a *Action) Wheel(ctx context.Context, guard input.KeyGuard, pt input.Point, ticks int, up bool) (before, after pagejs.WheelOffsets, err error) {
	cx, cy := a.Unzoom(pt)
	before, err = pagejs.WheelOffsetsAt(ctx, a.w, cx, cy)
	if err != nil {
		return before, before, &StepError{StepRead, err}
	}
	dy := wheelTickPx
	if up {
		dy = -dy
	}
	// One event carries every tick, as a fast spin coalesces: Chromium
	// scrolls for the first of several back-to-back synthetic wheel events
	// only (measured), so separate events would under-scroll.
	err = a.Dispatch(ctx, guard, func(ctx context.Context) (input.Effect, error) {
		return input.Wheel(ctx, a.t.Page(), pt, 0, dy*float64(ticks))
	})
	if err != nil {
		return before, before, err
	}
	goal := min(max(before.Y+dy*float64(ticks), 0), max(before.MaxY, 0))
	return before, pagejs.FollowWheel(ctx, a.w, cx, cy, before, goal), nil
}
