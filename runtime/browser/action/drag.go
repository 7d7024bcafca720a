package action

import (
	"context"
	"errors"
	"math"
	"time"

	"github.com/ghostlight-dev/ghostlight/runtime/browser/input"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
)

// End is one end of a drag.
type End int

const (
	EndSource End = iota + 1
	EndDestination
)

// EndError is a drag's end that could not be located.
type EndError struct {
	End End
	Err error
}

func (e *EndError) Error() string { return e.Err.Error() }
func (e *EndError) Unwrap() error { return e.Err }

// ErrDragNoFit says the two ends of a drag do not fit in the viewport
// together: bringing the destination into view scrolled the source away.
var ErrDragNoFit = errors.New("the drag's ends do not fit in view together")

// ErrUnresolved is a caller's resolver that could not name an element (it
// holds its own reason).
var ErrUnresolved = errors.New("unresolved")

// DragEnds are a drag's two ends located: the input points to press and
// release at, and the elements there.
type DragEnds struct {
	From, To            input.Point
	Source, Destination pagejs.Point
}

// LocateDragEnds locates the source (element src), then resolves the
// destination (dst, called once the source is located; false: ErrUnresolved)
// and locates it, the destination taking the drop even disabled. Bringing
// the destination into view may scroll the source away, so the source is
// located again after it; still scrolling, the two do not fit together
// (ErrDragNoFit). A locate's error is an EndError.
func (a *Action) LocateDragEnds(ctx context.Context, src int, dst func(ctx context.Context) (int, bool)) (DragEnds, error) {
	var e DragEnds
	var err error
	if e.From, e.Source, err = a.Locate(ctx, src, pagejs.LocateOptions{}); err != nil {
		return e, &EndError{EndSource, err}
	}
	did, ok := dst(ctx)
	if !ok {
		return e, ErrUnresolved
	}
	var dp pagejs.Point
	if e.To, dp, err = a.Locate(ctx, did, pagejs.LocateOptions{AllowDisabled: true}); err != nil {
		return e, &EndError{EndDestination, err}
	}
	e.Destination = dp
	if dp.Scrolled {
		var sp pagejs.Point
		if e.From, sp, err = a.Locate(ctx, src, pagejs.LocateOptions{}); err != nil {
			return e, &EndError{EndSource, err}
		}
		if sp.Scrolled {
			return e, ErrDragNoFit
		}
	}
	return e, nil
}

// DragResult is what a drag did: where it released (CSS viewport px), and,
// once the page settled, whether the page moved the dragged element
// (Checked: it was read).
type DragResult struct {
	X, Y           float64
	Checked, Moved bool
}

// Drag presses at from, moves to to paced by the layout under the
// destination, and releases (HTML5 drag and drop fires its real events:
// the browser's drag is intercepted), under the key guard, within three
// quarters of the call's time so settling and the receipt still fit. With
// src (the dragged element's id, 0 none) the result says, once the action
// settled, whether the page moved it (its parent, index or box changed):
// read the result's Checked and Moved after Run returned.
func (a *Action) Drag(ctx context.Context, guard input.KeyGuard, from, to input.Point, src int) (*DragResult, error) {
	var before pagejs.Place
	if src > 0 {
		before, _ = pagejs.PlaceOf(ctx, a.w, src)
	}
	var d input.Dragged
	err := a.Dispatch(ctx, guard, func(ctx context.Context) (input.Effect, error) {
		w, err := a.t.WatchDrags()
		if err != nil {
			return input.EffectNone, err
		}
		defer w.Stop()
		var eff input.Effect
		d, eff, err = input.PacedDrag(ctx, a.t.Page(), from, to, w, a.dragLooker(to, src), dragDeadline(ctx))
		return eff, err
	})
	if err != nil {
		return nil, err
	}
	res := &DragResult{}
	res.X, res.Y = a.Unzoom(d.Released)
	if src == 0 || before.Gone {
		return res, nil
	}
	// Whether the page moved the source is read once it settled (a
	// framework renders the drop after the event, a list animates).
	a.Settled = func(ctx context.Context) {
		after, err := pagejs.PlaceOf(ctx, a.w, src)
		if err != nil {
			return
		}
		res.Checked, res.Moved = true, placeMoved(before, after)
	}
	return res, nil
}

// placeMoved says the page moved an element between two reads of its
// place: it is gone, or its parent, index or box changed.
func placeMoved(before, after pagejs.Place) bool {
	return after.Gone || after.Parent != before.Parent || after.Index != before.Index || boxMoved(before.Box, after.Box)
}

// boxMoved: the element's box moved or changed size by more than a pixel.
func boxMoved(a, b pagejs.Box) bool {
	return math.Abs(a.X-b.X) > 1 || math.Abs(a.Y-b.Y) > 1 || math.Abs(a.Width-b.Width) > 1 || math.Abs(a.Height-b.Height) > 1
}

// dragDeadline is when a drag must be released: three quarters of the
// call's time, so settling and the receipt still fit after the drop.
func dragDeadline(ctx context.Context) time.Time {
	d := pagejs.ActionDeadline(ctx)
	now := time.Now()
	if left := d.Sub(now); left > 0 {
		return now.Add(left * 3 / 4)
	}
	return d
}

// dragLooker looks, once per animation frame, at the layout under a drag's
// destination (input.PacedDrag decides when to release from it).
func (a *Action) dragLooker(to input.Point, src int) input.Looker {
	x, y := a.Unzoom(to)
	return lookFunc(func(ctx context.Context) (int, input.Box, input.Box, error) {
		l, err := a.w.LookAfterFrame(ctx, x, y, src)
		return l.Key, inputBox(l.Box), inputBox(l.Src), err
	})
}

type lookFunc func(ctx context.Context) (int, input.Box, input.Box, error)

func (f lookFunc) Look(ctx context.Context) (int, input.Box, input.Box, error) { return f(ctx) }

func inputBox(b *pagejs.Box) input.Box {
	if b == nil {
		return input.Box{}
	}
	return input.Box{X: b.X, Y: b.Y, Width: b.Width, Height: b.Height}
}
