// Package actionable decides, from recorded samples, whether a target can
// take an action now. It is a leaf: the page code (pagejs) samples, input
// dispatches, and both import it.
package actionable

import (
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
)

// Actionability: before a pointer or key action dispatches, its target must
// be attached, visible, enabled, stable (its box unchanged across two
// animation frames) and the topmost element at the action point (or inside
// the target). The page is sampled once per animation frame
// (pagejs.AwaitActionable) and Decide, a pure function of the recorded
// samples and two clock readings, says act, wait for the next frame, or
// refuse. A cover animating out, a control sliding in or a button enabled a
// moment later therefore succeed; a permanent cover is refused at the
// deadline, naming what failed. Recorded sequences test it
// (actionable_test.go): no browser, no clock of its own, so it cannot flake.

// Box is a rectangle in top-viewport CSS pixels.
type Box struct{ X, Y, Width, Height float64 }

// Sample is one look at a target, taken in one animation frame.
type Sample struct {
	// Frame counts the animation frames waited for before this sample (0 for
	// the first); two samples in the same frame prove nothing about motion.
	Frame int
	// Attached: the element is still in its document. A detached element is
	// refused at once: its handle cannot come back.
	Attached bool
	// Visible: rendered with a size, and in (or brought into) the viewport.
	Visible bool
	// Enabled: not disabled or inert (always true where disabled controls
	// are acceptable, a hover say).
	Enabled bool
	// Hit: the topmost element at the action point is the target or inside
	// it (always true where covers do not matter).
	Hit bool
	// Box is the target's box; Key names the element sampled (the element at
	// a view point, which may change while its box stays).
	Box Box
	Key int
	// Animating: a finite animation on another element over the action
	// point is still running (a popup closing over the target). The press
	// waits for it to end and for one frame past it, within
	// cover_animation_frames of the wait.
	Animating bool
}

// Verdict is what to do after the samples so far.
type Verdict uint8

const (
	// Wait: sample again in the next animation frame.
	Wait Verdict = iota
	// Act: dispatch at the latest sample's point.
	Act
	// Refuse: the deadline passed (or the element is gone); the Failure says
	// which condition failed.
	Refuse
)

// Failure is the condition that did not hold in the latest sample.
type Failure uint8

const (
	FailNone Failure = iota
	// FailUnsampled: no sample was taken before the deadline.
	FailUnsampled
	FailDetached
	FailHidden
	FailDisabled
	// FailCovered: another element is topmost at every tried point.
	FailCovered
	// FailMoving: the box changed between the last two frames (or only one
	// frame was seen).
	FailMoving
)

func (f Failure) String() string {
	return [...]string{"none", "unsampled", "detached", "hidden", "disabled", "covered", "moving"}[f]
}

// Decide reads the samples (oldest first) at time now against the deadline
// for acting. The latest sample must pass every check and match the one
// before it, taken at least one frame earlier; the failure named at the
// deadline is the first of hidden, disabled, covered, moving that the latest
// sample fails.
func Decide(samples []Sample, now, deadline time.Time) (Verdict, Failure) {
	if len(samples) == 0 {
		if !now.Before(deadline) {
			return Refuse, FailUnsampled
		}
		return Wait, FailUnsampled
	}
	last := samples[len(samples)-1]
	if !last.Attached {
		return Refuse, FailDetached
	}
	f := failure(samples)
	switch {
	case f == FailNone:
		return Act, FailNone
	case !now.Before(deadline):
		return Refuse, f
	}
	return Wait, f
}

func failure(samples []Sample) Failure {
	last := samples[len(samples)-1]
	switch {
	case !last.Visible:
		return FailHidden
	case !last.Enabled:
		return FailDisabled
	case !last.Hit:
		return FailCovered
	case animating(samples):
		return FailCovered
	case !stable(samples):
		return FailMoving
	}
	return FailNone
}

// animating: within the first cover_animation_frames of the wait, the latest
// sample, or the latest one of an earlier frame, saw an animation over the
// point. Past them, or with none, the press goes ahead.
func animating(samples []Sample) bool {
	last := samples[len(samples)-1]
	if last.Frame >= limits.CoverAnimationFramesMax {
		return false
	}
	if last.Animating {
		return true
	}
	for i := len(samples) - 2; i >= 0; i-- {
		if p := samples[i]; p.Frame < last.Frame {
			return p.Animating // the frame after the animation ended: its finish handler has run
		}
	}
	return false
}

// stable: the latest sample's element and box equal those of the latest
// earlier sample taken in an earlier frame.
func stable(samples []Sample) bool {
	last := samples[len(samples)-1]
	for i := len(samples) - 2; i >= 0; i-- {
		p := samples[i]
		if p.Frame >= last.Frame {
			continue // same frame: no time passed for the box to move
		}
		return p.Attached && p.Visible && p.Key == last.Key && p.Box == last.Box
	}
	return false
}
