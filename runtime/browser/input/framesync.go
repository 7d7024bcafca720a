package input

import (
	"context"
	"fmt"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
)

// A click on an out-of-process frame is acknowledged by the browser before
// that frame's own process has run it: the browser moves keyboard focus to
// the frame at once, but the frame's field takes focus only when its
// process handles the mousedown. A key guard asking right after the click
// could then see the old focus while the key lands in the new one (a
// password field). So a click over such a frame returns only once the frame
// has dispatched the click's mouseups, counted by performance.eventCounts in
// an isolated world of the frame, where page code can neither hide nor
// block the count. The wait is bounded by limits.ClickFrameSyncMsMax.

type framesKey struct{}

// WithFrames gives input operations under ctx the tab's out-of-process
// frames (nil: clicks do not wait for them).
func WithFrames(ctx context.Context, src pagejs.FrameSource) context.Context {
	if src == nil {
		return ctx
	}
	return context.WithValue(ctx, framesKey{}, src)
}

func framesOf(ctx context.Context) pagejs.FrameSource {
	src, _ := ctx.Value(framesKey{}).(pagejs.FrameSource)
	return src
}

// frameSync is an armed wait on one out-of-process frame.
type frameSync struct {
	page     *rod.Page
	world    proto.RuntimeExecutionContextID
	down, up int
}

const frameSyncWorld = "ghostlight-click-sync"

// countJS reads the frame's mouseup count.
// countJS reads how many presses and releases the frame has dispatched.
const countJS = "(function(c){return c ? [c.get('mousedown') || 0, c.get('mouseup') || 0] : [0, 0]})(performance.eventCounts)"

// frameJS resolves after the document has produced click_frame_sync_frames
// animation frames.
var frameJS = fmt.Sprintf("new Promise(function (done) { var n = %d; var f = function () { if (--n <= 0) { done(); } else { requestAnimationFrame(f); } }; requestAnimationFrame(f); })", limits.ClickFrameSyncFramesMax)

// armFrameSync finds the out-of-process frame under pt, if any, and reads
// its mouseup count before the click. nil: the point is over no such frame,
// or the frame could not be asked (the click then does not wait).
func armFrameSync(ctx context.Context, page *rod.Page, pt Point) *frameSync {
	src := framesOf(ctx)
	if src == nil {
		return nil
	}
	var list []pagejs.Frame
	listed := false
	sess, p := page, pt
	var target *rod.Page
	var frameID proto.PageFrameID
	for step := 0; step < limits.FrameDepthMax; step++ {
		// The hit test takes document coordinates: the point plus the
		// document's scroll, as the browser (not page code) reports it.
		var lm proto.PageGetLayoutMetricsResult
		if callOn(ctx, sess, "click", proto.PageGetLayoutMetrics{}, &lm) != nil || lm.CSSVisualViewport == nil {
			break
		}
		var loc proto.DOMGetNodeForLocationResult
		if callOn(ctx, sess, "click", proto.DOMGetNodeForLocation{X: int(p.X + lm.CSSVisualViewport.PageX), Y: int(p.Y + lm.CSSVisualViewport.PageY), IgnorePointerEventsNone: true}, &loc) != nil {
			break
		}
		depth := 0
		var d proto.DOMDescribeNodeResult
		if callOn(ctx, sess, "click", proto.DOMDescribeNode{BackendNodeID: loc.BackendNodeID, Depth: &depth}, &d) != nil {
			break
		}
		n := d.Node
		if n.FrameID == "" || n.LocalName != "iframe" && n.LocalName != "frame" {
			break // an element of this document: its process has run the click
		}
		if !listed {
			list, listed = src(ctx), true
		}
		var child *rod.Page
		for _, f := range list {
			if f.FrameID == n.FrameID && f.Page != nil && f.Page.SessionID != sess.SessionID {
				child = f.Page
			}
		}
		if child == nil {
			break // a frame in this process: the same renderer ran the click
		}
		var box proto.DOMGetBoxModelResult
		if callOn(ctx, sess, "click", proto.DOMGetBoxModel{BackendNodeID: loc.BackendNodeID}, &box) != nil || box.Model == nil || len(box.Model.Content) < 2 {
			break
		}
		target, frameID = child, n.FrameID
		sess, p = child, Point{X: p.X - box.Model.Content[0], Y: p.Y - box.Model.Content[1]}
	}
	if target == nil {
		return nil
	}
	// The browser routes the press by the hit-test data the top document's
	// last compositor frame gave it: after a scroll or a layout change it
	// sent the press to the embedder and only the release to the frame (8
	// of 18 runs under load). A few frames of the top document first.
	var tw proto.PageCreateIsolatedWorldResult
	if callOn(ctx, page, "click", proto.PageCreateIsolatedWorld{FrameID: page.FrameID, WorldName: frameSyncWorld}, &tw) == nil {
		fctx, cancel := context.WithTimeout(ctx, time.Duration(limits.ClickFrameSyncMsMax)*time.Millisecond)
		var fr proto.RuntimeEvaluateResult
		_ = callOn(fctx, page, "click", proto.RuntimeEvaluate{Expression: frameJS, ContextID: tw.ExecutionContextID, AwaitPromise: true, Silent: true}, &fr)
		cancel()
	}
	var w proto.PageCreateIsolatedWorldResult
	if callOn(ctx, target, "click", proto.PageCreateIsolatedWorld{FrameID: frameID, WorldName: frameSyncWorld}, &w) != nil {
		return nil
	}
	var res proto.RuntimeEvaluateResult
	if callOn(ctx, target, "click", proto.RuntimeEvaluate{Expression: countJS, ContextID: w.ExecutionContextID, ReturnByValue: true, Silent: true}, &res) != nil || res.ExceptionDetails != nil {
		return nil
	}
	var c [2]int
	if res.Result.Value.Unmarshal(&c) != nil {
		return nil
	}
	return &frameSync{page: target, world: w.ExecutionContextID, down: c[0], up: c[1]}
}

// wait returns once the frame has dispatched n more releases than when it
// was armed, or the bound passed: the count rises as the frame's process
// runs the events, so the wait ends as soon as they ran. It reports an
// error when the frame ran the releases but not as many presses: the
// browser sent the press elsewhere, and nothing in the frame was pressed.
func (s *frameSync) wait(ctx context.Context, n int) error {
	if s == nil {
		return nil
	}
	wctx, cancel := context.WithTimeout(ctx, time.Duration(limits.ClickFrameSyncMsMax)*time.Millisecond)
	defer cancel()
	js := fmt.Sprintf(`new Promise(function (done) {
  (function poll() { const c = %s; if (c[1] >= %d) done(c); else setTimeout(poll, 0); })();
})`, countJS, s.up+n)
	var res proto.RuntimeEvaluateResult
	if callOn(wctx, s.page, "click", proto.RuntimeEvaluate{Expression: js, ContextID: s.world, AwaitPromise: true, ReturnByValue: true, Silent: true}, &res) != nil || res.ExceptionDetails != nil {
		return nil // the frame went away or is busy: the click's own replies stand
	}
	var c [2]int
	if res.Result.Value.Unmarshal(&c) == nil && c[0] < s.down+n {
		return &Error{Kind: KindProtocol, Op: "click", Err: fmt.Errorf("the frame under the point received %d of %d presses but every release: the browser sent the press elsewhere", c[0]-s.down, n)}
	}
	return nil
}
