package input

import (
	"github.com/ghostlight-dev/ghostlight/generated/surface"

	"context"
	"math"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// Point is a position in CSS pixels relative to the top-left corner of the main frame's viewport.
type Point struct{ X, Y float64 }

func finite(p Point) bool {
	return !math.IsNaN(p.X) && !math.IsNaN(p.Y) && !math.IsInf(p.X, 0) && !math.IsInf(p.Y, 0)
}

// Contract button names mapped to DevTools buttons and their `buttons` bitmask bits.
var mouseButtons = map[string]struct {
	button proto.InputMouseButton
	bit    int
}{
	surface.BrowserClickButtonPrimary:   {proto.InputMouseButtonLeft, 1},
	surface.BrowserClickButtonSecondary: {proto.InputMouseButtonRight, 2},
	surface.BrowserClickButtonMiddle:    {proto.InputMouseButtonMiddle, 4},
}

func intp(v int) *int { return &v }

func mouse(typ proto.InputDispatchMouseEventType, pt Point) proto.InputDispatchMouseEvent {
	return proto.InputDispatchMouseEvent{Type: typ, X: pt.X, Y: pt.Y, Buttons: intp(0), PointerType: proto.InputDispatchMouseEventPointerTypeMouse}
}

// Click moves the mouse to pt and presses and releases button count times, with clickCount rising
// 1..count so the page sees dblclick on the second press and selects a paragraph on the third.
// button is "primary", "middle" or "secondary"; count must be at least 1 (the caller's decoder owns
// the upper bound).
func Click(ctx context.Context, page *rod.Page, pt Point, button string, count int) (Effect, error) {
	const op = "click"
	b, ok := mouseButtons[button]
	switch {
	case !ok:
		return EffectNone, invalid(op, "unknown button %q", button)
	case count < 1:
		return EffectNone, invalid(op, "click count %d below 1", count)
	case !finite(pt):
		return EffectNone, invalid(op, "non-finite point")
	}
	r, err := newRun(ctx, page, op)
	if err != nil {
		return EffectNone, err
	}
	sync := armFrameSync(ctx, page, pt) // framesync.go
	guard := pressGuardOf(ctx)          // pressguard.go
	if guard != nil && guard.Arm(ctx) != nil {
		guard = nil // the page would not take the watch: click as before
	}
	// The move is posted, not awaited: the press right behind it flushes it (see run.post).
	if err := r.post(mouse(proto.InputDispatchMouseEventTypeMouseMoved, pt)); err != nil {
		return r.effect(err), err
	}
	for i := 1; i <= count; i++ {
		press := mouse(proto.InputDispatchMouseEventTypeMousePressed, pt)
		press.Button, press.Buttons, press.ClickCount = b.button, intp(b.bit), i
		if err := r.send(press); err != nil {
			return r.effect(err), err
		}
		release := mouse(proto.InputDispatchMouseEventTypeMouseReleased, pt)
		release.Button, release.ClickCount = b.button, i
		if guard != nil {
			if held := guard.BeforeRelease(ctx); held != nil {
				// The page swallows this release: it goes out only to end
				// the browser's press. The press happened: a partial effect.
				if err := r.send(release); err != nil {
					return r.effect(err), err
				}
				return EffectPartial, held
			}
		}
		if err := r.sendOrPost(release, i == count); err != nil {
			return r.effect(err), err
		}
	}
	if err := sync.wait(ctx, count); err != nil {
		return EffectPartial, err
	}
	return EffectApplied, nil
}

// Hover moves the mouse to pt, which fires mouseover/mouseenter and applies :hover.
func Hover(ctx context.Context, page *rod.Page, pt Point) (Effect, error) {
	const op = "hover"
	if !finite(pt) {
		return EffectNone, invalid(op, "non-finite point")
	}
	r, err := newRun(ctx, page, op)
	if err != nil {
		return EffectNone, err
	}
	err = r.send(mouse(proto.InputDispatchMouseEventTypeMouseMoved, pt))
	return r.effect(err), err
}

// Wheel dispatches one mouseWheel event at pt with the given CSS-pixel deltas (positive dy scrolls
// down). It returns once the browser acknowledged the event; the scroll itself may land a frame
// later, so callers that report offsets read them after a short settle.
func Wheel(ctx context.Context, page *rod.Page, pt Point, dx, dy float64) (Effect, error) {
	const op = "wheel"
	if !finite(pt) || !finite(Point{dx, dy}) {
		return EffectNone, invalid(op, "non-finite point or delta")
	}
	r, err := newRun(ctx, page, op)
	if err != nil {
		return EffectNone, err
	}
	ev := mouse(proto.InputDispatchMouseEventTypeMouseWheel, pt)
	ev.DeltaX, ev.DeltaY = dx, dy
	err = r.send(ev)
	return r.effect(err), err
}
