package input

import (
	"context"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// Looker looks at the page once per animation frame during a paced drag:
// Look waits for the next frame, then reports the element under the
// destination (Key, Box) and the dragged element's box (Src).
type Looker interface {
	Look(ctx context.Context) (key int, box, src Box, err error)
}

// Dragged is how a paced drag ended.
type Dragged struct {
	// Released is where the button was released (or the drop landed).
	Released Point
	// HTML5: the page started an HTML5 drag (finished with a drop).
	HTML5 bool
	// Held: the layout under the destination held still before the
	// release; false when drag_settle_ms ran out first.
	Held bool
	// Moves counts the moves sent (path and rest).
	Moves int
}

// PacedDrag presses at from, moves along DragPath to `to` one move per
// animation frame, rests over `to` until PaceDrag says the layout there held
// (or drag_settle_ms passed), and releases. An HTML5 drag the page starts is
// intercepted and continued with drag events as in Drag: dragEnter where it
// was intercepted, dragOver for every later move and rest, drop at `to`.
//
// By deadline (zero: none) the drag must be over: past it the path is cut
// to the destination and released at once, so a slow page gets a drop, not
// a call that ran out of time mid-drag.
func PacedDrag(ctx context.Context, page *rod.Page, from, to Point, seen Interceptions, look Looker, deadline time.Time) (Dragged, Effect, error) {
	const op = "drag"
	res := Dragged{Released: to}
	switch {
	case !finite(from) || !finite(to):
		return res, EffectNone, invalid(op, "non-finite point")
	case seen == nil || look == nil:
		return res, EffectNone, invalid(op, "no interception source or looker")
	}
	r, err := newRun(ctx, page, op)
	if err != nil {
		return res, EffectNone, err
	}
	if err := r.prep(proto.InputSetInterceptDrags{Enabled: true}); err != nil {
		return res, r.effect(err), err
	}
	defer func() {
		if ctx.Err() == nil {
			off := proto.InputSetInterceptDrags{Enabled: false}
			_, _ = page.Call(ctx, r.session, off.ProtoReq(), off)
		}
	}()
	if err := r.send(mouse(proto.InputDispatchMouseEventTypeMouseMoved, from)); err != nil {
		return res, r.effect(err), err
	}
	press := mouse(proto.InputDispatchMouseEventTypeMousePressed, from)
	press.Button, press.Buttons, press.ClickCount = proto.InputMouseButtonLeft, intp(1), 1
	if err := r.send(press); err != nil {
		return res, r.effect(err), err
	}
	start := time.Now()

	var data *proto.InputDragData
	// to moves the pointer (or the intercepted drag) to pt.
	moveTo := func(pt Point) error {
		res.Moves++
		if data != nil {
			return r.send(proto.InputDispatchDragEvent{Type: proto.InputDispatchDragEventTypeDragOver, X: pt.X, Y: pt.Y, Data: data})
		}
		move := mouse(proto.InputDispatchMouseEventTypeMouseMoved, pt)
		move.Button, move.Buttons = proto.InputMouseButtonLeft, intp(1)
		if err := r.send(move); err != nil {
			return err
		}
		if data = seen.Seen(); data != nil {
			return enter(r, data, pt)
		}
		return nil
	}
	path := DragPath(from, to)
	var frames []DragFrame
	moved := 0
	for {
		late := !deadline.IsZero() && !time.Now().Before(deadline)
		step, held := PaceDrag(frames, len(path), late)
		if step == StepRelease {
			res.Held = held
			break
		}
		var pt Point
		switch step {
		case StepMove:
			pt = path[moved]
			moved++
		case StepFinish:
			pt, moved = to, len(path)
		default:
			// Rest: a move a pixel aside and back, so pages that only act on
			// movement keep seeing the pointer over the destination (pointer
			// drags; an HTML5 drag rests still, below).
			pt = to
			if len(frames)%2 == 1 {
				pt.X++
			}
		}
		if step != StepMove && step != StepFinish && data != nil {
			// An HTML5 drag rests still: each dragOver re-runs the page's
			// hit test, and during SortableJS's 150 ms animation the point
			// falls in a gap, so it moved the item back and forth every
			// ~80 ms (recorded ABCDE/BCDAE) and the drop landed on either
			// (4 of 12 runs). The travel's last dragOver was at the
			// destination.
		} else if err := moveTo(pt); err != nil {
			return res, r.effect(err), err
		}
		if moved == dragStartHop && step == StepMove && data == nil {
			// The renderer starts an HTML5 drag in a task of its own after
			// it acknowledged the move: a barrier tells "no drag" from "not
			// yet" before the pointer travels on.
			if data = seen.Settle(ctx); data != nil {
				if err := enter(r, data, pt); err != nil {
					return res, r.effect(err), err
				}
			}
		}
		key, box, src, err := look.Look(ctx)
		if err != nil {
			return res, r.effect(err), err
		}
		frames = append(frames, DragFrame{At: time.Since(start), Moved: moved, Key: key, Box: box, Src: src})
	}
	if data == nil {
		if data = seen.Settle(ctx); data != nil {
			if err := enter(r, data, to); err != nil {
				return res, r.effect(err), err
			}
			if err := r.send(proto.InputDispatchDragEvent{Type: proto.InputDispatchDragEventTypeDragOver, X: to.X, Y: to.Y, Data: data}); err != nil {
				return res, r.effect(err), err
			}
		}
	}
	if ctx.Err() != nil {
		err := ctxError(ctx, op)
		return res, r.effect(err), err
	}
	if data == nil {
		release := mouse(proto.InputDispatchMouseEventTypeMouseReleased, to)
		release.Button, release.ClickCount = proto.InputMouseButtonLeft, 1
		err := r.send(release)
		return res, r.effect(err), err
	}
	res.HTML5 = true
	err = r.send(proto.InputDispatchDragEvent{Type: proto.InputDispatchDragEventTypeDrop, X: to.X, Y: to.Y, Data: data})
	return res, r.effect(err), err
}

// enter starts the intercepted drag's events where it was intercepted.
func enter(r *run, data *proto.InputDragData, pt Point) error {
	if data.Items == nil {
		data.Items = []*proto.InputDragDataItem{} // the protocol wants an array, never null
	}
	return r.send(proto.InputDispatchDragEvent{Type: proto.InputDispatchDragEventTypeDragEnter, X: pt.X, Y: pt.Y, Data: data})
}
