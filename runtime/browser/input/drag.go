package input

import (
	"context"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// dragSettle bounds how long Drag waits, after its last mouse move, for the browser to report an
// intercepted HTML5 drag before treating the gesture as a plain mouse drag. The browser emits the
// interception before it acknowledges the move that started the drag, so the wait only covers rod's
// event fan-out; measured well under 5 ms on two loaded cores.
const dragSettle = 25 * time.Millisecond

// Drag presses the primary button at from, moves to `to` in steps equal moves, and finishes the
// gesture the way the page started it:
//
//   - a plain mouse drag (sliders, canvas, custom sortables listening to mousedown/mousemove/mouseup)
//     gets its mouseReleased at `to`;
//   - an HTML5 drag (draggable=true and dragstart) is intercepted with Input.setInterceptDrags, so no
//     OS drag loop is involved (a headful browser's loop would swallow synthetic mouse events), and
//     finished with Input.dispatchDragEvent dragEnter, dragOver along the rest of the path, and drop at
//     `to` carrying the page's own drag data. As in a real drop, the page sees no mouseup.
//
// steps must be at least 1. After a cancellation in the middle of an intercepted drag the page is
// left mid-drag until the next drag or navigation.
func Drag(ctx context.Context, page *rod.Page, from, to Point, steps int) (Effect, error) {
	const op = "drag"
	switch {
	case steps < 1:
		return EffectNone, invalid(op, "steps %d below 1", steps)
	case !finite(from) || !finite(to):
		return EffectNone, invalid(op, "non-finite point")
	}
	r, err := newRun(ctx, page, op)
	if err != nil {
		return EffectNone, err
	}
	// Subscribe before enabling interception so the event cannot slip past.
	subCtx, stop := context.WithCancel(ctx)
	defer stop()
	events := page.Context(subCtx).Event()

	if err := r.prep(proto.InputSetInterceptDrags{Enabled: true}); err != nil {
		return r.effect(err), err
	}
	defer func() {
		// Leave interception off so nothing else's drags are swallowed; skipped when ctx ended,
		// since every Drag turns it on again anyway.
		if ctx.Err() == nil {
			off := proto.InputSetInterceptDrags{Enabled: false}
			_, _ = page.Call(ctx, r.session, off.ProtoReq(), off)
		}
	}()

	if err := r.send(mouse(proto.InputDispatchMouseEventTypeMouseMoved, from)); err != nil {
		return r.effect(err), err
	}
	press := mouse(proto.InputDispatchMouseEventTypeMousePressed, from)
	press.Button, press.Buttons, press.ClickCount = proto.InputMouseButtonLeft, intp(1), 1
	if err := r.send(press); err != nil {
		return r.effect(err), err
	}

	var data *proto.InputDragData
	at := steps // index of the path point where the drag was intercepted
	for i := 1; i <= steps; i++ {
		move := mouse(proto.InputDispatchMouseEventTypeMouseMoved, lerp(from, to, i, steps))
		move.Button, move.Buttons = proto.InputMouseButtonLeft, intp(1)
		if err := r.send(move); err != nil {
			return r.effect(err), err
		}
		if data = intercepted(ctx, events, 0); data != nil {
			at = i
			break
		}
	}
	if data == nil {
		data = intercepted(ctx, events, dragSettle)
	}
	if ctx.Err() != nil {
		err := ctxError(ctx, op)
		return r.effect(err), err
	}

	if data == nil {
		release := mouse(proto.InputDispatchMouseEventTypeMouseReleased, to)
		release.Button, release.ClickCount = proto.InputMouseButtonLeft, 1
		err := r.send(release)
		return r.effect(err), err
	}

	if data.Items == nil {
		data.Items = []*proto.InputDragDataItem{} // the protocol wants an array, never null
	}
	drag := func(typ proto.InputDispatchDragEventType, pt Point) error {
		return r.send(proto.InputDispatchDragEvent{Type: typ, X: pt.X, Y: pt.Y, Data: data})
	}
	if err := drag(proto.InputDispatchDragEventTypeDragEnter, lerp(from, to, at, steps)); err != nil {
		return r.effect(err), err
	}
	for i := at + 1; i <= steps; i++ {
		if err := drag(proto.InputDispatchDragEventTypeDragOver, lerp(from, to, i, steps)); err != nil {
			return r.effect(err), err
		}
	}
	if at == steps {
		// The drop target decides the operation on dragover: it must see one where the drop lands.
		if err := drag(proto.InputDispatchDragEventTypeDragOver, to); err != nil {
			return r.effect(err), err
		}
	}
	err = drag(proto.InputDispatchDragEventTypeDrop, to)
	return r.effect(err), err
}

func lerp(from, to Point, i, n int) Point {
	if i >= n {
		return to
	}
	f := float64(i) / float64(n)
	return Point{X: from.X + (to.X-from.X)*f, Y: from.Y + (to.Y-from.Y)*f}
}

// intercepted returns the data of an Input.dragIntercepted event already delivered, or one that
// arrives within wait; nil when none does.
func intercepted(ctx context.Context, events <-chan *rod.Message, wait time.Duration) *proto.InputDragData {
	var timeout <-chan time.Time
	if wait > 0 {
		t := time.NewTimer(wait)
		defer t.Stop()
		timeout = t.C
	}
	for {
		if timeout == nil {
			select {
			case m, ok := <-events:
				if !ok {
					return nil
				}
				if d := dragData(m); d != nil {
					return d
				}
				continue
			default:
				return nil
			}
		}
		select {
		case m, ok := <-events:
			if !ok {
				return nil
			}
			if d := dragData(m); d != nil {
				return d
			}
		case <-timeout:
			return nil
		case <-ctx.Done():
			return nil
		}
	}
}

func dragData(m *rod.Message) *proto.InputDragData {
	var e proto.InputDragIntercepted
	if load(m, &e) && e.Data != nil {
		return e.Data
	}
	return nil
}
