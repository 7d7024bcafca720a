package tools

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/input"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
)

// BrowserDrag drags one target onto another, or between two points of a
// current view. HTML5 drag and drop fires its real dragstart, dragover and
// drop events (input.Drag intercepts the browser's drag).
func (h *Handler) BrowserDrag(ctx context.Context, a *surface.BrowserDragArgs) (*surface.BrowserDragFacts, surface.Outcome) {
	s := h.session(ctx)
	ctx, cancel := deadline(ctx, a.TimeoutMs)
	defer cancel()
	// An end given by selector names no tab; the other end's handle may.
	handleEnd := a.SourceTarget
	if handleEnd == "" {
		handleEnd = a.DestinationTarget
	}
	t, ref := s.tabFor(ctx, a.Tab, handleEnd, a.View)
	if ref != nil {
		return nil, refused(ref)
	}
	f := &surface.BrowserDragFacts{Tab: t.Handle()}
	rec := language.Act{Verb: "Dragged"}
	ac, ref := s.perform(ctx, t, func(ctx context.Context, ac *act) *surface.Refusal {
		var from, to input.Point
		src := 0 // the dragged element's id, when the drag names one
		if a.Branch() == surface.BrowserDragBranchPoints {
			var r *surface.Refusal
			if from, r = ac.viewPoint(ctx, a.View, *a.StartX, *a.StartY, "/start_x"); r != nil {
				return r
			}
			if to, r = ac.viewPoint(ctx, a.View, *a.EndX, *a.EndY, "/end_x"); r != nil {
				return r
			}
			rec.Object = fmt.Sprintf("from (%d, %d) to (%d, %d) in %s", *a.StartX, *a.StartY, *a.EndX, *a.EndY, a.View)
		} else {
			var r *surface.Refusal
			from, to, src, r = ac.dragTargets(ctx, a, &rec)
			if r != nil {
				return r
			}
		}
		var before pagejs.Place
		if src > 0 {
			before, _ = pagejs.PlaceOf(ctx, ac.w, src)
		}
		var d input.Dragged
		err := ac.dispatch(ctx, func(ctx context.Context) (input.Effect, error) {
			w, err := ac.t.WatchDrags()
			if err != nil {
				return input.EffectNone, err
			}
			defer w.Stop()
			var eff input.Effect
			d, eff, err = input.PacedDrag(ctx, ac.t.Page(), from, to, w, ac.dragLooker(to, src), dragDeadline(ctx))
			return eff, err
		})
		if r := inputRefusal(ctx, err, a.TimeoutMs); r != nil || err != nil {
			return r
		}
		cx, cy := ac.x.Unzoom(d.Released)
		rec.Tail = language.DragTail(cx, cy, false, false)
		if src == 0 || before.Gone {
			return nil
		}
		// Whether the page moved the source is read once it settled (a
		// framework renders the drop after the event, a list animates).
		ac.x.Settled = func(ctx context.Context) {
			after, err := pagejs.PlaceOf(ctx, ac.w, src)
			if err != nil {
				return
			}
			f.SourceMoved = after.Gone || after.Parent != before.Parent || after.Index != before.Index || boxMoved(before.Box, after.Box)
			rec.Tail = language.DragTail(cx, cy, true, f.SourceMoved)
		}
		return nil
	})
	f.Dragged = ac.dispatched()
	f.Landing, f.OpenedTabs, f.DialogType = ac.landingOf(), ac.openedOf(), ac.dialogOf()
	return f, ac.outcome("browser_drag", ref, rec, false, a.TimeoutMs, "the drag")
}

// dragTargets locates both ends. Bringing the destination into view may
// scroll the source away, so the source is located again after it.
func (ac *act) dragTargets(ctx context.Context, a *surface.BrowserDragArgs, rec *language.Act) (input.Point, input.Point, int, *surface.Refusal) {
	srcPtr := locator(a.SourceSelector, "/source_target", "/source_selector")
	id, r := ac.resolve(ctx, a.SourceTarget, a.SourceSelector, srcPtr)
	if r != nil {
		return input.Point{}, input.Point{}, 0, r
	}
	from, src, _, r := ac.locateID(ctx, id, srcPtr, pagejs.LocateOptions{})
	if r != nil {
		return from, from, 0, r
	}
	to, dst, dp, r := ac.locate(ctx, a.DestinationTarget, a.DestinationSelector, locator(a.DestinationSelector, "/destination_target", "/destination_selector"), pagejs.LocateOptions{AllowDisabled: true})
	if r != nil {
		return from, to, 0, r
	}
	if dp.Scrolled {
		var sp pagejs.Point
		if from, _, sp, r = ac.locateID(ctx, id, srcPtr, pagejs.LocateOptions{}); r != nil {
			return from, to, 0, r
		}
		if sp.Scrolled {
			return from, to, 0, &surface.Refusal{Reason: surface.ReasonTargetHidden, Pointer: "/destination_target",
				Message: language.MsgDragNoFit}
		}
	}
	rec.Object = language.Target(src, ac.s.h.names) + " onto " + language.Target(dst, ac.s.h.names)
	return from, to, id, nil
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
// destination (input.PaceDrag decides when to release from it).
func (ac *act) dragLooker(to input.Point, src int) input.Looker {
	x, y := ac.x.Unzoom(to)
	return lookFunc(func(ctx context.Context) (int, input.Box, input.Box, error) {
		l, err := ac.w.LookAfterFrame(ctx, x, y, src)
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

// boxMoved: the element's box moved or changed size by more than a pixel.
func boxMoved(a, b pagejs.Box) bool {
	return math.Abs(a.X-b.X) > 1 || math.Abs(a.Y-b.Y) > 1 || math.Abs(a.Width-b.Width) > 1 || math.Abs(a.Height-b.Height) > 1
}
