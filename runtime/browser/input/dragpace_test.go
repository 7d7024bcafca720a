package input

import (
	"math"
	"testing"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
)

func TestDragPathStartsSmallAndEndsAtTheDestination(t *testing.T) {
	from, to := Point{X: 100, Y: 100}, Point{X: 100, Y: 400}
	p := DragPath(from, to)
	if p[len(p)-1] != to {
		t.Fatalf("path ends at %v, want %v", p[len(p)-1], to)
	}
	// The first moves stay within drag_start_px and pass it together.
	if d := p[dragStartHop-1].Y - from.Y; d != float64(limits.DragStartPxMax) {
		t.Fatalf("start moves reach %v px, want %d", d, limits.DragStartPxMax)
	}
	prev := from
	for i, q := range p {
		step := math.Hypot(q.X-prev.X, q.Y-prev.Y)
		if step > float64(limits.DragStepPxMax)+1e-9 || step <= 0 {
			t.Fatalf("move %d is %v px", i, step)
		}
		prev = q
	}
	if len(p) > limits.DragPathMovesMax {
		t.Fatalf("%d moves", len(p))
	}
	// A short drag: the start moves are the whole path.
	if q := DragPath(from, Point{X: 104, Y: 100}); len(q) != dragStartHop || q[len(q)-1] != (Point{X: 104, Y: 100}) {
		t.Fatalf("short path %v", q)
	}
	// A very long drag keeps to the bound.
	if q := DragPath(Point{}, Point{X: 100000}); len(q) > limits.DragPathMovesMax {
		t.Fatalf("long path has %d moves", len(q))
	}
}

// frames builds a recorded drag: one frame per path move, then rest frames,
// each 16 ms apart; layout(i) gives the element and box under the
// destination in frame i.
func frames(total, rest int, layout func(i int) (int, Box)) []DragFrame {
	var fs []DragFrame
	for i := 0; i < total+rest; i++ {
		k, b := layout(i)
		m := i + 1
		if m > total {
			m = total
		}
		fs = append(fs, DragFrame{At: time.Duration(i+1) * 16 * time.Millisecond, Moved: m, Key: k, Box: b})
	}
	return fs
}

// pace replays the frames and returns the index of the frame after which
// PaceDrag released (-1: never), and whether the layout held.
func pace(fs []DragFrame, total int) (int, bool) {
	for i := range fs {
		if s, held := PaceDrag(fs[:i+1], total, false); s == StepRelease {
			return i, held
		} else if fs[i].Moved < total && s != StepMove {
			return -2, false
		}
	}
	return -1, false
}

var slot = Box{X: 10, Y: 300, Width: 200, Height: 40}

func TestPaceDragMovesOncePerFrameThenRests(t *testing.T) {
	if s, _ := PaceDrag(nil, 5, false); s != StepMove {
		t.Fatalf("first step %v", s)
	}
	fs := frames(5, 0, func(int) (int, Box) { return 1, slot })
	if s, _ := PaceDrag(fs, 5, false); s != StepRest {
		t.Fatalf("on arrival %v, want a rest (no frame has held yet)", s)
	}
}

// A still page: released once the layout has held drag_dwell_frames frames
// and drag_dwell_ms since arriving.
func TestPaceDragStillPageReleasesAfterTheDwell(t *testing.T) {
	fs := frames(10, 30, func(int) (int, Box) { return 1, slot })
	i, held := pace(fs, 10)
	if !held || i < 0 {
		t.Fatalf("released after frame %d, held=%v", i, held)
	}
	rested := fs[i].At - fs[9].At
	if rested < dragDwell || i-9 < limits.DragDwellFramesMax {
		t.Fatalf("released after resting %v and %d frames", rested, i-9)
	}
}

// The SortableJS case: the list swaps under the pointer on arrival and again
// 30 ms later (a swap it deferred); the release waits out the dwell after
// the last change.
func TestPaceDragWaitsAfterTheLastSwap(t *testing.T) {
	swapAt := map[int]bool{10: true, 12: true}
	key := 1
	fs := frames(10, 40, func(i int) (int, Box) {
		if swapAt[i] {
			key++
		}
		return key, slot
	})
	i, held := pace(fs, 10)
	if !held || i < 0 {
		t.Fatalf("released after %d held=%v", i, held)
	}
	if fs[i].At-fs[12].At < dragDwell {
		t.Fatalf("released %v after the last swap, want at least %v", fs[i].At-fs[12].At, dragDwell)
	}
}

// The dragged element sliding into place counts as a change too.
func TestPaceDragWaitsForTheSourceToSettle(t *testing.T) {
	fs := frames(4, 60, func(int) (int, Box) { return 1, slot })
	for i := 4; i < 20; i++ {
		fs[i].Src = Box{Y: float64(i)}
	}
	i, held := pace(fs, 4)
	if !held || i < 20 {
		t.Fatalf("released after %d held=%v, want after the source stopped at 19", i, held)
	}
}

// A page that never holds still is released at drag_settle_ms.
func TestPaceDragNeverStillReleasesAtTheBound(t *testing.T) {
	n := int(dragSettle/(16*time.Millisecond)) + 10
	fs := frames(3, n, func(i int) (int, Box) { return i, slot })
	i, held := pace(fs, 3)
	if held || i < 0 {
		t.Fatalf("released after %d held=%v", i, held)
	}
	if fs[i].At-fs[2].At < dragSettle {
		t.Fatalf("released after %v, want %v", fs[i].At-fs[2].At, dragSettle)
	}
}

// Late in the call: the path is cut to the destination, then released.
func TestPaceDragLateCutsToTheDestination(t *testing.T) {
	fs := frames(10, 0, func(int) (int, Box) { return 1, slot })[:3]
	if s, _ := PaceDrag(fs, 10, true); s != StepFinish {
		t.Fatalf("late mid-path: %v, want StepFinish", s)
	}
	if s, _ := PaceDrag(nil, 10, true); s != StepMove {
		t.Fatalf("late before any move: %v, want StepMove (the press needs a first move)", s)
	}
	fs = frames(10, 1, func(int) (int, Box) { return 1, slot })
	if s, held := PaceDrag(fs, 10, true); s != StepRelease || held {
		t.Fatalf("late on arrival: %v %v, want an unheld release", s, held)
	}
}
