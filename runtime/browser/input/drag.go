package input

import (
	"context"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

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
// seen tells, after each move, whether the browser intercepted a drag (see Interceptions); no
// wait decides it. steps must be at least 1. After a cancellation in the middle of an intercepted drag the page is
// left mid-drag until the next drag or navigation.
// Interceptions tells whether the browser intercepted an HTML5 drag
// (Input.dragIntercepted). Seen reports, without waiting, the data of one the
// page's session has delivered, or nil. Settle first makes a round trip
// through the renderer, then reports: the renderer starts a drag in a task of
// its own after it acknowledged the move, so only a barrier after the last
// move tells "no drag" from "not yet" (a Seen check alone missed 4 in 20 under
// load, measured). The source must see events in the browser's own order
// (runtime/browser's observers).
type Interceptions interface {
	Seen() *proto.InputDragData
	Settle(ctx context.Context) *proto.InputDragData
}

func Drag(ctx context.Context, page *rod.Page, from, to Point, steps int, seen Interceptions) (Effect, error) {
	const op = "drag"
	switch {
	case steps < 1:
		return EffectNone, invalid(op, "steps %d below 1", steps)
	case !finite(from) || !finite(to):
		return EffectNone, invalid(op, "non-finite point")
	case seen == nil:
		return EffectNone, invalid(op, "no interception source")
	}
	r, err := newRun(ctx, page, op)
	if err != nil {
		return EffectNone, err
	}
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
		if data = seen.Seen(); data != nil {
			at = i
			break
		}
	}
	if data == nil {
		data = seen.Settle(ctx)
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
