package pagejs

import (
	"context"
	"encoding/json"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
)

// DragLook is one look during a paced drag (input.PaceDrag): it waits for the
// next animation frame (or actionable_frame_wait_ms where frames do not run)
// and reports, in the same round trip, the element under top-viewport point
// (x, y) in CSS px, its box, and the box of element src (0: none; gone:
// zero).
type DragLook struct {
	Key int  `json:"key"`
	Box *Box `json:"box"`
	Src *Box `json:"src"`
}

// LookAfterFrame takes a DragLook in the main document's world.
func (w *World) LookAfterFrame(ctx context.Context, x, y float64, src int) (DragLook, error) {
	arg := map[string]any{"x": x, "y": y, "src": src}
	if !w.Local(src) {
		arg["src"] = 0
	}
	raw, err := w.callAwait(ctx, `function(a, ms){var api=this;return new Promise(function(r){var d=false;var f=function(){if(!d){d=true;r(api.dragSample(a))}};requestAnimationFrame(f);setTimeout(f,ms)})}`,
		arg, limits.ActionableFrameWaitMsMax)
	if err != nil {
		return DragLook{}, err
	}
	var out DragLook
	return out, decodeEnvelope("dragSample", raw, &out)
}

// Place is where an element sits in its document: its parent's id, its index
// among the parent's element children, its box. Gone: it is no longer there.
type Place struct {
	Gone   bool `json:"gone"`
	Parent int  `json:"parent"`
	Index  int  `json:"index"`
	Box    Box  `json:"box"`
}

// PlaceOf reads where element id sits (main document's world only; an id
// of a frame reads as gone).
func PlaceOf(ctx context.Context, w *World, id int) (Place, error) {
	if !w.Local(id) {
		return Place{Gone: true}, nil
	}
	var p Place
	err := w.invokeLocal(ctx, "dragPlace", mustJSON(map[string]int{"id": id}), &p)
	return p, err
}

// decodeEnvelope decodes a page entry point's envelope returned by value.
func decodeEnvelope(op string, raw json.RawMessage, out any) error {
	var text string
	if err := json.Unmarshal(raw, &text); err != nil {
		return &Error{Kind: KindInternal, Op: op, Detail: "page reply is not a string", Err: err}
	}
	var env envelope
	if err := json.Unmarshal([]byte(text), &env); err != nil {
		return &Error{Kind: KindInternal, Op: op, Detail: "undecodable page reply", Err: err}
	}
	if env.Err != nil {
		return env.Err.toError(op)
	}
	if err := json.Unmarshal(env.OK, out); err != nil {
		return &Error{Kind: KindInternal, Op: op, Detail: "undecodable page result", Err: err}
	}
	return nil
}
