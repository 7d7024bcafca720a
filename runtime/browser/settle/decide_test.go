package settle

import (
	"testing"
	"time"
)

// Recorded event sequences, replayed through the pure decision. t0 is the
// watch start; times are offsets in ms.

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func at(ms float64) time.Time { return t0.Add(time.Duration(ms * float64(time.Millisecond))) }

func cfg() Config {
	return Config{Quiet: 50 * time.Millisecond, Frames: 2, FrameGap: 16 * time.Millisecond, DOMPatience: time.Second, Retry: 8 * time.Millisecond, Start: t0}
}

// quiet is a baseline probe of a page that has not mutated lately.
var quiet = Event{Kind: Probed, At: at(0), Probe: Probe{Seq: 3, Ago: -1, Frames: -1, Ready: "complete"}}

func probed(ms float64, p Probe) Event { return Event{Kind: Probed, At: at(ms), Probe: p} }

func same(ms float64) Event { return probed(ms, Probe{Seq: 3, Ago: -1, Frames: -1, Ready: "complete"}) }

func ev(k Kind, ms float64) Event { return Event{Kind: k, At: at(ms)} }

func req(k Kind, ms float64, id string) Event { return Event{Kind: k, At: at(ms), Request: id} }

func TestNothingHappenedSettlesAfterOneBarrier(t *testing.T) {
	v := Decide(cfg(), []Event{quiet, ev(Acked, 2), same(3)}, at(3))
	if !v.Settled || v.Readiness != "complete" {
		t.Fatalf("%+v", v)
	}
}

// The late-network-event case: the input is acknowledged and nothing has
// been recorded yet. Without a round trip after the acknowledgement the
// record proves nothing, so the decision never settles on it.
func TestNoBarrierAfterTheInputNeverSettles(t *testing.T) {
	for _, evs := range [][]Event{
		{quiet, ev(Acked, 2)},
		{quiet, ev(Synced, 1), ev(Acked, 2)}, // a round trip before the input proves nothing about it
	} {
		v := Decide(cfg(), evs, at(500))
		if v.Settled || !v.Barrier {
			t.Fatalf("settled without catching up: %+v", v)
		}
	}
}

// The request's event reaches the record after the acknowledgement: the
// barrier that follows orders it, so the page is held while it is in flight.
func TestLateRequestEventHoldsThePage(t *testing.T) {
	evs := []Event{quiet, ev(Acked, 2), req(RequestStarted, 2.5, "r1"), same(3)}
	v := Decide(cfg(), evs, at(3))
	if v.Settled || v.Pending != 1 || !v.Until.IsZero() {
		t.Fatalf("pending request: %+v", v)
	}
	// It finishes: the page must be caught up again after that event.
	evs = append(evs, req(RequestEnded, 40, "r1"))
	if v := Decide(cfg(), evs, at(40)); v.Settled || !v.Barrier || v.Pending != 0 {
		t.Fatalf("after the request ended: %+v", v)
	}
	evs = append(evs, same(41))
	if v := Decide(cfg(), evs, at(41)); !v.Settled {
		t.Fatalf("caught up after the request: %+v", v)
	}
}

// An event recorded after the latest barrier (a follow-on request started
// by the first one's handler) needs another round trip before settling.
func TestEventAfterTheBarrierNeedsAnother(t *testing.T) {
	evs := []Event{quiet, ev(Acked, 2), same(3), req(RequestStarted, 4, "r2"), req(RequestEnded, 9, "r2")}
	if v := Decide(cfg(), evs, at(10)); v.Settled || !v.Barrier {
		t.Fatalf("%+v", v)
	}
}

func TestRequestThatNeverAnswersHoldsToTheBound(t *testing.T) {
	evs := []Event{quiet, ev(Acked, 2), req(RequestStarted, 2, "hang"), same(3), same(30000)}
	v := Decide(cfg(), evs, at(30000))
	if v.Settled || v.Pending != 1 || v.Loading {
		t.Fatalf("%+v", v)
	}
	// An end event for a request never started changes nothing.
	evs = append(evs, req(RequestEnded, 30001, "other"))
	if v := Decide(cfg(), evs, at(30002)); v.Pending != 1 {
		t.Fatalf("%+v", v)
	}
}

// Recorded under load (TestWatchFollowsANavigation, 1 run in about 100): the
// old document fetched its favicon just before the click, the link's
// navigation cut it short, and Chromium never said it finished or failed.
// The commit of the new document ends it; the new document's own requests
// still hold.
func TestCommitEndsTheOldDocumentsRequests(t *testing.T) {
	started := func(ms float64, id, loader string) Event {
		return Event{Kind: RequestStarted, At: at(ms), Request: id, Loader: loader}
	}
	evs := []Event{quiet, started(1, "14694.2", "old"), ev(Acked, 2), ev(NavRequested, 2.5),
		started(3, "nav", "new"), ev(LoadStarted, 4), req(RequestEnded, 15, "nav"),
		{Kind: Committed, At: at(20), Loader: "new"}, started(25, "14694.4", "new")}
	if v := Decide(cfg(), evs, at(26)); v.Pending != 1 || v.Settled {
		t.Fatalf("the new document's favicon is pending: %+v", v)
	}
	evs = append(evs, req(RequestEnded, 30, "14694.4"), ev(LoadStopped, 40), ev(Synced, 41))
	if v := Decide(cfg(), evs, at(41)); !v.Settled || v.Pending != 0 {
		t.Fatalf("the old document's request still holds: %+v", v)
	}
	// Without the commit's loader nothing is dropped.
	evs = []Event{quiet, started(1, "a", "old"), ev(Acked, 2), ev(Committed, 20), ev(Synced, 41)}
	if v := Decide(cfg(), evs, at(41)); v.Pending != 1 {
		t.Fatalf("%+v", v)
	}
}

func TestNavigationHoldsUntilLoadStops(t *testing.T) {
	evs := []Event{quiet, ev(NavRequested, 1), ev(Acked, 2), same(3)}
	if v := Decide(cfg(), evs, at(3)); v.Settled || !v.Loading {
		t.Fatalf("requested: %+v", v)
	}
	evs = append(evs, ev(LoadStarted, 4), ev(Committed, 20), ev(LoadStopped, 40))
	v := Decide(cfg(), evs, at(40))
	if v.Settled || v.Loading || !v.Barrier || v.Readiness != "" {
		t.Fatalf("stopped, not yet caught up (and the readiness of the old document is gone): %+v", v)
	}
	evs = append(evs, ev(Synced, 41))
	if v := Decide(cfg(), evs, at(41)); !v.Settled {
		t.Fatalf("loaded: %+v", v)
	}
}

// A 204: requested, started and stopped without a commit.
func TestNoContentNavigationSettlesAtOnce(t *testing.T) {
	evs := []Event{quiet, ev(Acked, 2), ev(NavRequested, 2.2), ev(LoadStarted, 2.4), same(3), ev(LoadStopped, 6), same(7)}
	if v := Decide(cfg(), evs, at(7)); !v.Settled {
		t.Fatalf("%+v", v)
	}
}

// The page let a navigation through (a form submit in a later task) that the
// browser has not announced yet: wait for the announcement, at most
// DOMPatience.
func TestNavigationThePageReportedWaitsForTheBrowser(t *testing.T) {
	evs := []Event{quiet, ev(Acked, 2), probed(3, Probe{Seq: 3, Ago: -1, Frames: -1, Started: 1})}
	v := Decide(cfg(), evs, at(3))
	if v.Settled || !v.Expecting || !v.Until.Equal(at(1003)) {
		t.Fatalf("%+v", v)
	}
	if v := Decide(cfg(), append(evs, ev(LoadStarted, 9), ev(LoadStopped, 30), same(31)), at(31)); !v.Settled {
		t.Fatalf("announced and done: %+v", v)
	}
	if v := Decide(cfg(), append(evs, same(1004)), at(1004)); !v.Settled {
		t.Fatalf("never announced: %+v", v)
	}
}

// The DOM changed after the input: settled once it stays unchanged across
// two animation frames, without waiting out a time window.
func TestDOMQuietAfterTwoFrames(t *testing.T) {
	evs := []Event{quiet, ev(Acked, 2), probed(3, Probe{Seq: 4, Ago: 1, Frames: 0, Tick: 6})}
	v := Decide(cfg(), evs, at(3))
	if v.Settled || !v.Mutating || !v.Until.Equal(at(14)) {
		t.Fatalf("just mutated: the next look comes just after the next frame: %+v", v)
	}
	if v := Decide(cfg(), []Event{quiet, ev(Acked, 2), probed(3, Probe{Seq: 4, Ago: 1, Frames: 0, Tick: -1})}, at(3)); !v.Until.Equal(at(20)) {
		t.Fatalf("frames not ticking yet: one gap: %+v", v)
	}
	evs = append(evs, probed(19, Probe{Seq: 4, Ago: 17, Frames: 1}))
	if v := Decide(cfg(), evs, at(19)); v.Settled || !v.Mutating {
		t.Fatalf("one frame: %+v", v)
	}
	evs = append(evs, probed(35, Probe{Seq: 4, Ago: 33, Frames: 2}))
	if v := Decide(cfg(), evs, at(35)); !v.Settled {
		t.Fatalf("two frames: %+v", v)
	}
}

// DOMOnly says the DOM alone holds the page, so Watch may wait for its
// frames in the page; any other hold (a request, a navigation, a window)
// keeps the event-driven wait.
func TestOnlyTheDOMHolding(t *testing.T) {
	mut := probed(3, Probe{Seq: 4, Ago: 1, Frames: 0, Tick: 6})
	if v := Decide(cfg(), []Event{quiet, ev(Acked, 2), mut}, at(3)); !v.Mutating || !v.DOMOnly {
		t.Fatalf("DOM only: %+v", v)
	}
	for name, evs := range map[string][]Event{
		"request":    {quiet, ev(Acked, 2), req(RequestStarted, 2.5, "r"), mut},
		"navigation": {quiet, ev(Acked, 2), ev(NavRequested, 2.5), mut},
		"window":     {quiet, ev(Acked, 2), ev(WindowOpened, 2.5), mut},
		"expecting":  {quiet, ev(Acked, 2), probed(3, Probe{Seq: 4, Ago: 1, Frames: 0, Started: 1})},
	} {
		if v := Decide(cfg(), evs, at(3)); !v.Mutating || v.DOMOnly {
			t.Fatalf("%s: %+v", name, v)
		}
	}
	// Nothing changed: no frames are waited for at all (one barrier).
	if v := Decide(cfg(), []Event{quiet, ev(Acked, 2), same(3)}, at(3)); !v.Settled || v.Mutating || v.DOMOnly {
		t.Fatalf("still: %+v", v)
	}
	// What a hold returns with: two frames since the last mutation.
	if v := Decide(cfg(), []Event{quiet, ev(Acked, 2), mut, probed(28, Probe{Seq: 4, Ago: 26, Frames: 2, Tick: 0.5})}, at(28)); !v.Settled {
		t.Fatalf("after the hold: %+v", v)
	}
	// A hold that ended by time with frames not running, before the quiet
	// time: still mutating, looked at again by the quiet time.
	if v := Decide(cfg(), []Event{quiet, ev(Acked, 2), mut, probed(30, Probe{Seq: 4, Ago: 28, Frames: 0})}, at(30)); v.Settled || !v.DOMOnly {
		t.Fatalf("hold ended early: %+v", v)
	}
}

// Where animation frames do not run (a hidden page), the quiet time stands in.
func TestDOMQuietByTimeWithoutFrames(t *testing.T) {
	evs := []Event{quiet, ev(Acked, 2), probed(3, Probe{Seq: 4, Ago: 1, Frames: 0}), probed(60, Probe{Seq: 4, Ago: 58, Frames: 0})}
	if v := Decide(cfg(), evs, at(60)); !v.Settled {
		t.Fatalf("%+v", v)
	}
	c := cfg()
	c.Frames = 0
	evs = []Event{quiet, ev(Acked, 2), probed(3, Probe{Seq: 4, Ago: 1, Frames: 5})}
	if v := Decide(c, evs, at(3)); v.Settled || !v.Until.Equal(at(52)) {
		t.Fatalf("time only: %+v", v)
	}
}

// A page animating before the input gives no DOM evidence.
func TestAnimatingPageIsNotWaitedFor(t *testing.T) {
	evs := []Event{probed(0, Probe{Seq: 90, Ago: 4, Frames: 0}), ev(Acked, 2), probed(3, Probe{Seq: 95, Ago: 1, Frames: 0})}
	if v := Decide(cfg(), evs, at(3)); !v.Settled {
		t.Fatalf("%+v", v)
	}
}

// A page whose last mutation is recent but two frames old was quiet before
// the input: the action's mutations count.
func TestQuietByFramesBeforeTheInput(t *testing.T) {
	evs := []Event{probed(0, Probe{Seq: 5, Ago: 20, Frames: 2}), ev(Acked, 2), probed(3, Probe{Seq: 6, Ago: 1, Frames: 0})}
	if v := Decide(cfg(), evs, at(3)); v.Settled || !v.Mutating {
		t.Fatalf("%+v", v)
	}
}

func TestMutationsAloneHoldAtMostDOMPatience(t *testing.T) {
	evs := []Event{quiet, ev(Acked, 2), probed(1001, Probe{Seq: 400, Ago: 1, Frames: 0})}
	if v := Decide(cfg(), evs, at(1001)); !v.Settled {
		t.Fatalf("%+v", v)
	}
}

func TestProbeLostDropsDOMEvidence(t *testing.T) {
	evs := []Event{quiet, ev(Acked, 2), probed(3, Probe{Seq: 4, Ago: 1, Frames: 0}), ev(ProbeLost, 5), ev(Synced, 6)}
	if v := Decide(cfg(), evs, at(6)); !v.Settled {
		t.Fatalf("%+v", v)
	}
}

// A round trip no document could answer is retried after Retry, not a
// quiet window (without Retry, Quiet stands in).
func TestFailedBarrierIsRetriedSoon(t *testing.T) {
	evs := []Event{quiet, ev(Acked, 2), ev(ProbeLost, 3), ev(BarrierFailed, 4)}
	v := Decide(cfg(), evs, at(4))
	if v.Settled || !v.Until.Equal(at(12)) {
		t.Fatalf("%+v", v)
	}
	if v := Decide(cfg(), append(evs, ev(Synced, 13)), at(13)); !v.Settled {
		t.Fatalf("%+v", v)
	}
	c := cfg()
	c.Retry = 0
	if v := Decide(c, evs, at(4)); !v.Until.Equal(at(54)) {
		t.Fatalf("no Retry: %+v", v)
	}
}

func TestOpenedWindowHoldsUntilAdopted(t *testing.T) {
	evs := []Event{quiet, ev(Acked, 2), ev(WindowOpened, 2.5), same(3)}
	v := Decide(cfg(), evs, at(3))
	if v.Settled || v.Opening != 1 || !v.Until.Equal(at(11)) || v.DOMOnly {
		t.Fatalf("%+v", v)
	}
	if v := Decide(cfg(), append(evs, ev(TabAdopted, 8), same(9)), at(9)); !v.Settled {
		t.Fatalf("%+v", v)
	}
}

// EventQuiet keeps the time-based guard after each page event.
func TestEventQuietHoldsAfterEvents(t *testing.T) {
	c := cfg()
	c.EventQuiet = true
	evs := []Event{quiet, ev(Acked, 2), req(RequestStarted, 2, "a"), req(RequestEnded, 10, "a"), same(11)}
	v := Decide(c, evs, at(11))
	if v.Settled || !v.Until.Equal(at(60)) {
		t.Fatalf("%+v", v)
	}
	if v := Decide(c, append(evs, same(60)), at(60)); !v.Settled {
		t.Fatalf("%+v", v)
	}
}

// The incremental State and the fold agree.
func TestStateMatchesFold(t *testing.T) {
	evs := []Event{quiet, ev(Acked, 2), req(RequestStarted, 2.5, "r1"), same(3), req(RequestEnded, 40, "r1"), same(41)}
	s := New(cfg())
	for i, e := range evs {
		s.Add(e)
		now := e.At
		if got, want := s.Decide(now), Decide(cfg(), evs[:i+1], now); got != want {
			t.Fatalf("after %d: %+v != %+v", i, got, want)
		}
	}
}

// Downloads the page let through are counted from the probes after the
// input only, and never hold the page.
func TestDownloadsCountedAfterTheInputOnly(t *testing.T) {
	before := quiet
	before.Probe.Downloads = 1 // before the input: not the action's
	v := Decide(cfg(), []Event{before, ev(Acked, 2), probed(3, Probe{Seq: 3, Ago: -1, Frames: -1, Ready: "complete", Downloads: 1}),
		probed(5, Probe{Seq: 3, Ago: -1, Frames: -1, Ready: "complete", Downloads: 1})}, at(5))
	if !v.Settled || v.Downloads != 2 {
		t.Fatalf("%+v", v)
	}
}
