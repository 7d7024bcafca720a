package actionable

import (
	"testing"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
)

// Recorded sample sequences, as AwaitActionable takes them from a page, one
// per animation frame. The clock is a reading per sample, 16 ms apart.

var (
	t0       = time.Unix(1000, 0)
	checkbox = Box{X: 20, Y: 200, Width: 16, Height: 16}
)

func at(frame int) time.Time { return t0.Add(time.Duration(frame) * 16 * time.Millisecond) }

func ok(frame int, b Box) Sample {
	return Sample{Frame: frame, Attached: true, Visible: true, Enabled: true, Hit: true, Box: b}
}

// feed feeds the samples one by one, as the loop would, and returns the
// verdict and failure at the first sample that does not say Wait, and its
// index (-1 and the last verdict when all of them said Wait).
func feed(t *testing.T, samples []Sample, deadline time.Time) (Verdict, Failure, int) {
	t.Helper()
	var v Verdict
	var f Failure
	for i := range samples {
		v, f = Decide(samples[:i+1], at(samples[i].Frame), deadline)
		if v != Wait {
			return v, f, i
		}
	}
	return v, f, -1
}

func TestDecideFirstPassingSampleWaitsOneFrame(t *testing.T) {
	s := []Sample{ok(0, checkbox), ok(1, checkbox)}
	if v, f := Decide(s[:1], at(0), at(100)); v != Wait || f != FailMoving {
		t.Fatalf("one sample: %v %v, want Wait moving (stability needs a second frame)", v, f)
	}
	if v, f, i := feed(t, s, at(100)); v != Act || f != FailNone || i != 1 {
		t.Fatalf("got %v %v at %d, want Act at sample 1", v, f, i)
	}
}

func TestDecideSameFrameProvesNothing(t *testing.T) {
	s := []Sample{ok(0, checkbox), ok(0, checkbox), ok(0, checkbox)}
	if v, f, _ := feed(t, s, at(100)); v != Wait || f != FailMoving {
		t.Fatalf("got %v %v, want Wait moving", v, f)
	}
}

// The Shoelace case: a listbox closing over ~300 ms covers the checkbox for
// 18 frames, then the click goes through in the frame the cover leaves.
func TestDecideCoverLeaves(t *testing.T) {
	var s []Sample
	for i := 0; i < 18; i++ {
		c := ok(i, checkbox)
		c.Hit = false
		s = append(s, c)
	}
	s = append(s, ok(18, checkbox))
	v, f, i := feed(t, s, at(300))
	if v != Act || i != 18 {
		t.Fatalf("got %v %v at %d, want Act at 18", v, f, i)
	}
	// Had the deadline come first, the refusal names the cover.
	if v, f, i := feed(t, s[:10], at(9)); v != Refuse || f != FailCovered || i != 9 {
		t.Fatalf("deadline: %v %v at %d, want Refuse covered at 9", v, f, i)
	}
}

// A control slides in: its box changes for 12 frames, then stays.
func TestDecideControlMovesThenSettles(t *testing.T) {
	var s []Sample
	for i := 0; i <= 12; i++ {
		s = append(s, ok(i, Box{X: 400 - float64(i)*30, Y: 50, Width: 80, Height: 30}))
	}
	s = append(s, ok(13, s[12].Box), ok(14, s[12].Box))
	v, f, i := feed(t, s, at(1000))
	if v != Act || i != 13 {
		t.Fatalf("got %v %v at %d, want Act at 13 (first frame equal to the one before)", v, f, i)
	}
}

func TestDecideNeverSettlesIsRefusedAsMoving(t *testing.T) {
	var s []Sample
	for i := 0; i < 40; i++ {
		s = append(s, ok(i, Box{X: float64(i % 7), Y: 50, Width: 80, Height: 30}))
	}
	v, f, i := feed(t, s, at(30))
	if v != Refuse || f != FailMoving || i != 30 {
		t.Fatalf("got %v %v at %d, want Refuse moving at 30", v, f, i)
	}
}

func TestDecideDisabledThenEnabled(t *testing.T) {
	var s []Sample
	for i := 0; i < 12; i++ { // 200 ms
		c := ok(i, checkbox)
		c.Enabled = false
		s = append(s, c)
	}
	s = append(s, ok(12, checkbox))
	if v, f, i := feed(t, s, at(100)); v != Act || i != 12 {
		t.Fatalf("got %v %v at %d, want Act at 12", v, f, i)
	}
	if v, f, _ := feed(t, s[:12], at(11)); v != Refuse || f != FailDisabled {
		t.Fatalf("deadline: %v %v, want Refuse disabled", v, f)
	}
}

func TestDecideDetachedMidwayRefusesAtOnce(t *testing.T) {
	s := []Sample{ok(0, checkbox), {Frame: 1}}
	s[0].Hit = false
	if v, f, i := feed(t, s, at(100)); v != Refuse || f != FailDetached || i != 1 {
		t.Fatalf("got %v %v at %d, want Refuse detached at 1, before the deadline", v, f, i)
	}
}

func TestDecideHiddenThenShown(t *testing.T) {
	s := []Sample{{Frame: 0, Attached: true}, {Frame: 1, Attached: true}, ok(2, checkbox), ok(3, checkbox)}
	if v, f, i := feed(t, s, at(100)); v != Act || i != 3 {
		t.Fatalf("got %v %v at %d, want Act at 3", v, f, i)
	}
	if v, f, _ := feed(t, s[:2], at(1)); v != Refuse || f != FailHidden {
		t.Fatalf("deadline: %v %v, want Refuse hidden", v, f)
	}
}

// Failures are named in order: hidden, disabled, covered, moving.
func TestDecideNamesTheFirstFailure(t *testing.T) {
	moving := ok(1, Box{X: 1, Width: 5, Height: 5})
	covered := moving
	covered.Hit = false
	disabled := covered
	disabled.Enabled = false
	for _, c := range []struct {
		s    Sample
		want Failure
	}{{moving, FailMoving}, {covered, FailCovered}, {disabled, FailDisabled}} {
		if v, f := Decide([]Sample{ok(0, checkbox), c.s}, at(5), at(5)); v != Refuse || f != c.want {
			t.Errorf("got %v %v, want Refuse %v", v, f, c.want)
		}
	}
}

// A view point: the element under it changes while the boxes agree.
func TestDecidePointElementMustStay(t *testing.T) {
	a, b := ok(0, checkbox), ok(1, checkbox)
	a.Key, b.Key = 7, 8
	if v, f := Decide([]Sample{a, b}, at(1), at(100)); v != Wait || f != FailMoving {
		t.Fatalf("got %v %v, want Wait moving", v, f)
	}
	c := ok(2, checkbox)
	c.Key = 8
	if v, _ := Decide([]Sample{a, b, c}, at(2), at(100)); v != Act {
		t.Fatalf("got %v, want Act", v)
	}
}

func TestDecideNoSample(t *testing.T) {
	if v, f := Decide(nil, at(0), at(1)); v != Wait || f != FailUnsampled {
		t.Fatalf("got %v %v", v, f)
	}
	if v, f := Decide(nil, at(1), at(1)); v != Refuse || f != FailUnsampled {
		t.Fatalf("got %v %v", v, f)
	}
}

func anim(frame int, b Box) Sample {
	s := ok(frame, b)
	s.Animating = true
	return s
}

// Recorded from Shoelace (conformance probe, 2026-12-07): after an option is
// picked, the listbox's 100 ms hide animation runs over the checkbox below
// while the checkbox is already the hit at its point (the listbox passes
// pointer events while it hides); when the animation ends the listbox is
// hit-tested at full size for a frame until its finish handler hides it. The
// press waits for the animation to end and for one frame past it.
func TestDecideWaitsForACoverAnimatingOut(t *testing.T) {
	s := []Sample{anim(0, checkbox), anim(1, checkbox), anim(2, checkbox), anim(3, checkbox), ok(4, checkbox), ok(5, checkbox)}
	v, f, i := feed(t, s, at(100))
	if v != Act || i != 5 {
		t.Fatalf("got %v %v at %d, want Act at sample 5 (a frame after the last animating one)", v, f, i)
	}
	if v, f := Decide(s[:5], at(4), at(100)); v != Wait || f != FailCovered {
		t.Fatalf("the first frame without the animation: %v %v, want Wait covered", v, f)
	}
}

// An animation that never ends (one restarted every few frames) holds the
// press only for cover_animation_frames: a press is never refused for it.
func TestDecideAnimationWaitIsBounded(t *testing.T) {
	var s []Sample
	for i := 0; i <= limits.CoverAnimationFramesMax+1; i++ {
		s = append(s, anim(i, checkbox))
	}
	v, _, i := feed(t, s, at(1000))
	if v != Act || s[i].Frame != limits.CoverAnimationFramesMax {
		t.Fatalf("got %v at frame %d, want Act at frame %d", v, s[max(i, 0)].Frame, limits.CoverAnimationFramesMax)
	}
}

// At the deadline, an animation still over the point is named a cover.
func TestDecideAnimationAtTheDeadline(t *testing.T) {
	s := []Sample{anim(0, checkbox), anim(1, checkbox)}
	if v, f := Decide(s, at(1), at(1)); v != Refuse || f != FailCovered {
		t.Fatalf("got %v %v, want Refuse covered", v, f)
	}
}
