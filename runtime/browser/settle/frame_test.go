package settle

import "testing"

func frameCfg() Config { c := cfg(); c.FrameAfter = true; return c }

// The virtualized-list case, recorded: a script sets scrollTop; the probe
// behind it, in the script's own task, sees nothing (the scroll event fires
// in the next frame). Without FrameAfter that settles, and a read after it
// sees the old rows; with it, the page owes a frame.
func TestScrollByScriptOwesAFrame(t *testing.T) {
	behind := []Event{quiet, ev(Acked, 2), same(2)}
	if v := Decide(cfg(), behind, at(2)); !v.Settled {
		t.Fatalf("without FrameAfter: %+v", v)
	}
	v := Decide(frameCfg(), behind, at(2))
	if v.Settled || !v.Frame || v.Mutating || v.Barrier {
		t.Fatalf("owes a frame: %+v", v)
	}
	// The hold returns in the next frame: the scroll event ran there (seq
	// +1, no frame since it), so the DOM is changing and held on.
	scrolled := append(behind, probed(18, Probe{Seq: 4, Ago: 0.2, Frames: 0, Tick: 0.1, Held: true}))
	if v := Decide(frameCfg(), scrolled, at(18)); v.Settled || !v.Mutating || !v.DOMOnly || v.Frame {
		t.Fatalf("after the scroll's frame: %+v", v)
	}
	// The list re-rendered after that frame (seq +40), then two quiet frames.
	rendered := append(scrolled, probed(52, Probe{Seq: 44, Ago: 30, Frames: 2, Tick: 1, Held: true}))
	if v := Decide(frameCfg(), rendered, at(52)); !v.Settled {
		t.Fatalf("after the re-render and two quiet frames: %+v", v)
	}
}

// A frame that cannot be waited for (no time left, the probe could not run)
// is waived, not waited for forever.
func TestAWaivedFrameSettles(t *testing.T) {
	evs := []Event{quiet, ev(Acked, 2), same(2), ev(FrameWaived, 3)}
	if v := Decide(frameCfg(), evs, at(3)); !v.Settled {
		t.Fatalf("%+v", v)
	}
}

// Without DOM evidence (the probe never ran, or a new document committed)
// there is no hold to ask for: a round trip settles as before.
func TestNoFrameOwedWithoutDOMEvidence(t *testing.T) {
	for _, evs := range [][]Event{
		{ev(Acked, 2), ev(Synced, 3)},
		{quiet, ev(Acked, 2), ev(ProbeLost, 3), ev(Synced, 4)},
	} {
		if v := Decide(frameCfg(), evs, at(5)); !v.Settled || v.Frame {
			t.Fatalf("%+v", v)
		}
	}
}

// A hold that already ran after the input (the DOM changed, then went
// quiet over two frames) pays the frame: no second hold.
func TestAHoldForTheDOMPaysTheFrame(t *testing.T) {
	evs := []Event{quiet, ev(Acked, 2), probed(3, Probe{Seq: 4, Ago: 1, Frames: 0, Tick: 6}),
		probed(40, Probe{Seq: 4, Ago: 38, Frames: 2, Tick: 2, Held: true})}
	if v := Decide(frameCfg(), evs, at(40)); !v.Settled {
		t.Fatalf("%+v", v)
	}
}

// A hold in which no frame ran (a loaded machine) does not pay the frame:
// the page owes it still, up to DOMPatience from the start.
func TestAHoldWithoutAFrameOwesItStill(t *testing.T) {
	evs := []Event{quiet, ev(Acked, 2), same(2), probed(53, Probe{Seq: 3, Ago: -1, Frames: -1, Tick: -1})}
	if v := Decide(frameCfg(), evs, at(53)); v.Settled || !v.Frame {
		t.Fatalf("%+v", v)
	}
	if v := Decide(frameCfg(), evs, at(1000)); !v.Settled {
		t.Fatalf("past DOMPatience: %+v", v)
	}
}
