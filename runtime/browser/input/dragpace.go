package input

import (
	"math"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
)

// Paced drags. Libraries accept a drag only when it looks like a hand's: a
// press, a few small moves past their start threshold (dnd-kit's activation
// distance, the browser's own before an HTML5 dragstart), travel in steps the
// page sees frame by frame, and a rest over the destination until the page's
// layout there has stopped changing. SortableJS ignores drag-over for 30 ms
// after each swap; a drag that moves and drops inside that window lands one
// slot short. DragPath plans the moves; PaceDrag, a pure function of the
// frames seen so far, says whether to move on, rest, or release.

var (
	dragStartPx  = float64(limits.DragStartPxMax)
	dragStepPx   = float64(limits.DragStepPxMax)
	dragDwell    = time.Duration(limits.DragDwellMsMax) * time.Millisecond
	dragSettle   = time.Duration(limits.DragSettleMsMax) * time.Millisecond
	dragStartHop = 3 // moves that carry the pointer past drag_start_px
)

// DragPath plans the pointer's path from from to to, excluding from: first
// dragStartHop moves of drag_start_px/3 each toward the destination (or the
// whole way when it is closer), then equal moves of at most drag_step_px,
// ending exactly at to. The plan keeps to drag_path_moves less the start.
func DragPath(from, to Point) []Point {
	dx, dy := to.X-from.X, to.Y-from.Y
	d := math.Hypot(dx, dy)
	if d == 0 || math.IsNaN(d) || math.IsInf(d, 0) {
		return []Point{to}
	}
	ux, uy := dx/d, dy/d
	var path []Point
	start := math.Min(dragStartPx, d)
	for i := 1; i <= dragStartHop; i++ {
		s := start * float64(i) / float64(dragStartHop)
		path = append(path, Point{X: from.X + ux*s, Y: from.Y + uy*s})
	}
	rest := d - start
	if rest <= 0 {
		path[len(path)-1] = to
		return path
	}
	n := int(math.Ceil(rest / dragStepPx))
	if max := limits.DragPathMovesMax / 2; n > max {
		n = max // the other half is left for resting over the destination
	}
	for i := 1; i <= n; i++ {
		s := start + rest*float64(i)/float64(n)
		path = append(path, Point{X: from.X + ux*s, Y: from.Y + uy*s})
	}
	path[len(path)-1] = to
	return path
}

// DragFrame is one look at the page during a drag, taken in the animation
// frame after the latest move.
type DragFrame struct {
	// At is the time since the press.
	At time.Duration
	// Moved is how many moves of the path were sent.
	Moved int
	// Key and Box are the element under the destination point and its box;
	// Src is the dragged element's box (zero once it is gone).
	Key int
	Box Box
	Src Box
}

// DragStep is what a drag does next.
type DragStep uint8

const (
	// StepMove: send the next move of the path.
	StepMove DragStep = iota
	// StepRest: stay over the destination (a move there, so the page keeps
	// seeing the pointer) and look again next frame.
	StepRest
	// StepRelease: release over the destination.
	StepRelease
	// StepFinish: move straight to the destination (the call's time is
	// nearly out).
	StepFinish
)

// PaceDrag decides the next step from the frames seen so far (oldest first),
// total being the path's length. One move per frame until the path is done;
// then rest until the layout under the destination (the element there, its
// box, and the dragged element's box) has held for drag_dwell_frames frames
// and drag_dwell_ms since it last changed, or drag_settle_ms after arriving
// (a page that never holds still is released anyway). held reports
// whether the release came because the layout held. late says the call's
// time is nearly out: the path is cut to its last move, and the drag
// released as soon as it arrived (StepFinish, then StepRelease).
func PaceDrag(frames []DragFrame, total int, late bool) (step DragStep, held bool) {
	if len(frames) == 0 || frames[len(frames)-1].Moved < total {
		if late && len(frames) > 0 {
			return StepFinish, false
		}
		return StepMove, false
	}
	if late {
		return StepRelease, false
	}
	last := frames[len(frames)-1]
	// The frames since the path was done, and the start of the latest run
	// of unchanged layout among them.
	arrived := len(frames) - 1
	for arrived > 0 && frames[arrived-1].Moved >= total {
		arrived--
	}
	run := len(frames) - 1
	for run > arrived && sameLayout(frames[run-1], last) {
		run--
	}
	if len(frames)-1-run >= limits.DragDwellFramesMax && last.At-frames[run].At >= dragDwell {
		return StepRelease, true
	}
	if last.At-frames[arrived].At >= dragSettle {
		return StepRelease, false
	}
	return StepRest, false
}

func sameLayout(a, b DragFrame) bool { return a.Key == b.Key && a.Box == b.Box && a.Src == b.Src }
