// Package settle decides when a page has settled after an action, from
// evidence: the page's own events in the browser's order, reports of a DOM
// probe, and round trips that prove the event stream has caught up.
//
// The decision (State, Decide) is a pure function of a recorded sequence of
// typed events and clock readings: no browser, no goroutines, no clock of
// its own. Watch feeds it from a live tab.
//
// A page counts as settled when, after the input was acknowledged and after
// the latest page event, one round trip through the renderer returned (so
// every event emitted before it is recorded) and at that point:
//
//   - no main-frame navigation is under way, and none the page let through
//     is still waiting to be announced;
//   - no request issued since the watch began is still in flight;
//   - every window the page announced has been adopted;
//   - the DOM is quiet: unchanged across Config.Frames animation frames after
//     the last mutation or scroll (or, where frames do not run, for
//     Config.Quiet);
//   - with Config.FrameAfter, one probe waited in the page for an animation
//     frame after the input: a scroll the action made fires its event, and
//     resize and intersection observers run, only in the next frame, and a
//     virtualized list re-renders from there.
//
// A page already mutating before the input (an animation, a clock) gives no
// DOM evidence, and mutations alone never hold a page past DOMPatience.
package settle

import (
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
)

// Kind is the kind of a recorded event.
type Kind uint8

// Event kinds.
const (
	// Probed: a DOM probe returned; Event.Probe holds its report. A probe is
	// a round trip through the renderer, so it is also a barrier. Before
	// Acked it is the baseline.
	Probed Kind = iota + 1
	// Acked: the action's input was acknowledged; settling starts.
	Acked
	// Synced: a plain round trip through the renderer, begun after Acked,
	// returned: the barrier when no probe can run.
	Synced
	// ProbeLost: the DOM probe could not run (the document is going away);
	// DOM evidence ends for this watch.
	ProbeLost
	// BarrierFailed: a round trip failed (no document could answer yet).
	BarrierFailed
	// NavRequested: the main frame was asked to navigate in this tab.
	NavRequested
	// LoadStarted: the main frame started loading.
	LoadStarted
	// LoadStopped: the main frame stopped loading (loaded, or a 204).
	LoadStopped
	// SameDocument: a fragment or history.pushState move.
	SameDocument
	// Committed: a new main-frame document committed.
	Committed
	// WindowOpened: the page announced it is opening a window.
	WindowOpened
	// TabAdopted: a tab the page opened is now controlled.
	TabAdopted
	// RequestStarted: a request was sent; Event.Request names it.
	RequestStarted
	// RequestEnded: that request finished or failed.
	RequestEnded
	// FrameWaived: the frame Config.FrameAfter asks for could not be waited
	// for (no time left, the probe could not run): settling goes on without.
	FrameWaived
)

var kindNames = [...]string{Probed: "probed", Acked: "acked", Synced: "synced", ProbeLost: "probe_lost",
	BarrierFailed: "barrier_failed", NavRequested: "nav_requested", LoadStarted: "load_started",
	LoadStopped: "load_stopped", SameDocument: "same_document", Committed: "committed",
	WindowOpened: "window_opened", TabAdopted: "tab_adopted", RequestStarted: "request_started",
	RequestEnded: "request_ended", FrameWaived: "frame_waived"}

func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return "kind?"
}

// Event is one recorded piece of evidence.
type Event struct {
	Kind    Kind
	At      time.Time
	Request string // RequestStarted, RequestEnded
	// Loader is the document loader a request belongs to (RequestStarted),
	// or the one a committed document was loaded by (Committed).
	Loader string
	Probe  Probe // Probed
}

// Probe is one report of the page-side probe (pagejs.World.SettleProbe).
type Probe struct {
	Seq     int     `json:"seq"`     // mutation records seen since the probe was armed
	Ago     float64 `json:"ago"`     // ms since the last mutation; -1 when none was seen
	Frames  int     `json:"frames"`  // animation frames since the last mutation; -1 when none was seen
	Tick    float64 `json:"tick"`    // ms since the last animation frame; -1 when none ran
	Ready   string  `json:"ready"`   // document.readyState
	Started int     `json:"started"` // navigations (and form submissions) the page let through since the last report
	// Downloads: downloads the page let through since the last report (an
	// a[download] link); they never hold the page.
	Downloads int `json:"downloads"`
	// Held: the report is a hold's, and an animation frame ran during it.
	Held bool `json:"held"`
}

// Config tunes a decision. Values come from spec/ through the wiring.
type Config struct {
	// Quiet: DOM mutations this old count as quiet when animation frames do
	// not run (a hidden or throttled page); with EventQuiet, also the quiet
	// time after each page event.
	Quiet time.Duration
	// Frames: animation frames without a mutation after which the DOM counts
	// as quiet. 0 leaves only the Quiet time.
	Frames int
	// FrameGap: the expected time between animation frames; while frames
	// are still being counted, the next look is just after the next frame.
	FrameGap time.Duration
	// EventQuiet holds the page for Quiet after every page event (navigation
	// steps, requests), as a time-based guard instead of evidence alone.
	EventQuiet bool
	// DOMPatience bounds, from Start, how long mutations alone hold a page,
	// and how long a navigation the page let through may take to be
	// announced by the browser.
	DOMPatience time.Duration
	// Retry is how soon to look again where only looking can tell: a
	// window announced but not yet adopted (Watch also wakes at the
	// adoption), or a round trip no document could answer yet (the next
	// page event wakes it too). 0 falls back to Quiet.
	Retry time.Duration
	// FrameAfter: settling needs one hold after the input (an animation
	// frame in the page), so what the frame runs (scroll events, resize and
	// intersection observers) is seen.
	FrameAfter bool
	// Start is when the watch began (before the input).
	Start time.Time
}

func (c Config) retry() time.Duration {
	if c.Retry > 0 {
		return c.Retry
	}
	return c.Quiet
}

// Verdict is one decision.
type Verdict struct {
	Settled bool
	// Barrier: the page changed after the latest round trip (or none came
	// after the input yet): catch up before deciding again.
	Barrier bool
	// Until: otherwise decide again at this time, or at the next event
	// (zero: only at an event).
	Until time.Time

	// What still holds the page.
	Loading   bool // a main-frame navigation is under way
	Pending   int  // requests in flight
	Opening   int  // announced windows not yet adopted
	Mutating  bool // the DOM is still changing
	Expecting bool // the page let a navigation through that the browser has not announced
	// DOMOnly: only the DOM still changing holds the page, so waiting in
	// the page for its animation frames (Watch's hold probe) loses nothing.
	DOMOnly bool
	// Frame: nothing else holds the page, but Config.FrameAfter's frame
	// has not been waited for: hold once.
	Frame bool

	Readiness string // document.readyState at the latest probe ("" unknown)
	Downloads int    // downloads the page let through since the input
}

// State folds events into what a Verdict needs. It is not safe for
// concurrent use; Watch guards it.
type State struct {
	cfg Config

	acked     time.Time // zero until Acked
	barrier   time.Time // latest Probed or Synced at or after acked
	lastEvent time.Time // latest page event (navigation, request, window)
	failedAt  time.Time // latest BarrierFailed

	navigating bool
	navSeen    bool              // the browser announced a main-frame navigation
	inflight   map[string]string // request id -> its document's loader
	opens      int
	adopted    int

	baseline *Probe // the probe before Acked
	domLive  bool   // DOM evidence counts: the page was quiet before, and the probe runs
	last     *Probe // the latest probe after Acked
	lastAt   time.Time
	expect   time.Time // the first probe that reported a navigation the page let through
	ready    string
	framed   bool // a hold saw a frame after the input, or its frame was waived
	// downloads the page let through after the input, summed over probes.
	downloads int
}

// New returns an empty State.
func New(cfg Config) *State {
	return &State{cfg: cfg, inflight: map[string]string{}}
}

// Decide folds events into a fresh State and decides at now.
func Decide(cfg Config, events []Event, now time.Time) Verdict {
	s := New(cfg)
	for _, e := range events {
		s.Add(e)
	}
	return s.Decide(now)
}

// Add records one event.
func (s *State) Add(e Event) {
	switch e.Kind {
	case Probed:
		p := e.Probe
		s.ready = p.Ready
		if s.acked.IsZero() {
			// The baseline: a page whose DOM was not quiet before the
			// action (by the same rule as after it) is animating on its
			// own, and its mutations say nothing about the action.
			s.baseline = &p
			s.domLive = p.Ago < 0 || p.Ago >= ms(s.cfg.Quiet) || s.cfg.Frames > 0 && p.Frames >= s.cfg.Frames
			return
		}
		s.barrier = e.At
		s.last, s.lastAt = &p, e.At
		s.framed = s.framed || p.Held
		s.downloads += p.Downloads
		if p.Started > 0 && s.expect.IsZero() {
			s.expect = e.At
		}
	case Acked:
		if s.acked.IsZero() {
			s.acked = e.At
		}
	case Synced:
		if !s.acked.IsZero() {
			s.barrier = e.At
		}
	case ProbeLost:
		s.domLive, s.last = false, nil
	case BarrierFailed:
		s.failedAt = e.At
	case FrameWaived:
		s.framed = true
	case NavRequested:
		s.navigating = true
		s.lastEvent = e.At
	case LoadStarted:
		s.navigating, s.navSeen = true, true
		s.lastEvent = e.At
	case LoadStopped:
		s.navigating = false
		s.lastEvent = e.At
	case SameDocument:
		s.navigating, s.navSeen = false, true
		s.lastEvent = e.At
	case Committed:
		// A new document: the probe's reports were about the old one, and
		// the old one's requests are gone with it. Chromium ends some with
		// no event: a favicon fetch the navigation cut short was never
		// reported finished or failed, and held the call to its bound.
		s.navSeen = true
		s.domLive, s.last, s.ready = false, nil, ""
		s.lastEvent = e.At
		if e.Loader != "" {
			for id, l := range s.inflight {
				if l != e.Loader {
					delete(s.inflight, id)
				}
			}
		}
	case WindowOpened:
		s.opens++
		s.lastEvent = e.At
	case TabAdopted:
		s.adopted++
	case RequestStarted:
		s.inflight[e.Request] = e.Loader
		s.lastEvent = e.At
	case RequestEnded:
		if _, ok := s.inflight[e.Request]; ok {
			delete(s.inflight, e.Request)
			s.lastEvent = e.At
		}
	}
}

// Decide says whether the page has settled at now, and if not, what holds
// it and when to look again.
func (s *State) Decide(now time.Time) Verdict {
	v := Verdict{Readiness: s.ready, Loading: s.navigating, Pending: len(s.inflight), Downloads: s.downloads}
	if s.opens > s.adopted {
		v.Opening = s.opens - s.adopted
	}
	var until time.Time
	later := func(t time.Time) {
		if until.IsZero() || t.Before(until) {
			until = t
		}
	}
	busy := v.Loading || v.Pending > 0
	if v.Opening > 0 {
		// Adoption is not an event of this page: look again soon.
		busy = true
		later(now.Add(s.cfg.retry()))
	}
	if s.cfg.EventQuiet && !s.lastEvent.IsZero() {
		if end := s.lastEvent.Add(s.cfg.Quiet); now.Before(end) {
			busy = true
			later(end)
		}
	}
	if s.barrierFailedLast() {
		// No document could answer: try again soon (a page event may wake
		// the watch first).
		busy = true
		later(s.failedAt.Add(s.cfg.retry()))
	}
	if !s.expect.IsZero() && !s.navSeen {
		if end := s.expect.Add(s.cfg.DOMPatience); now.Before(end) {
			v.Expecting = true
			busy = true
			later(end)
		}
	}
	if s.mutating(now, later) {
		v.Mutating = true
		v.DOMOnly = !busy
		busy = true
	}
	caughtUp := !s.acked.IsZero() && !s.barrier.IsZero() && !s.barrier.Before(s.acked) && !s.barrier.Before(s.lastEvent)
	switch {
	case busy:
		v.Until = until
	case !caughtUp:
		v.Barrier = true
	case s.cfg.FrameAfter && !s.framed && s.domLive && s.last != nil && now.Sub(s.cfg.Start) < s.cfg.DOMPatience:
		// Owed until a hold saw a frame: a loaded renderer may run none
		// within one hold's time. A page whose frames never run (none
		// measured here: background tabs run them) pays DOMPatience.
		v.Frame = true
	default:
		v.Settled = true
	}
	return v
}

// barrierFailedLast: the latest round trip failed and none succeeded since.
func (s *State) barrierFailedLast() bool {
	return !s.failedAt.IsZero() && s.failedAt.After(s.barrier)
}

// mutating says whether the latest probe shows the DOM still changing
// because of the action, and when that evidence could change.
func (s *State) mutating(now time.Time, later func(time.Time)) bool {
	p := s.last
	if !s.domLive || p == nil || s.baseline == nil || p.Seq == s.baseline.Seq || p.Ago < 0 {
		return false
	}
	if now.Sub(s.cfg.Start) >= s.cfg.DOMPatience {
		return false
	}
	if s.cfg.Frames > 0 && p.Frames >= s.cfg.Frames {
		return false
	}
	quietAt := s.lastAt.Add(s.cfg.Quiet - time.Duration(p.Ago*float64(time.Millisecond)))
	if !now.Before(quietAt) {
		return false
	}
	if s.cfg.Frames > 0 && s.cfg.FrameGap > 0 {
		// Just after the next frame: the gap less the time since the last
		// one (a frame late or not yet ticking: one gap from the probe).
		next := s.cfg.FrameGap
		if p.Tick >= 0 && p.Tick < ms(s.cfg.FrameGap) {
			next -= time.Duration(p.Tick * float64(time.Millisecond))
		}
		later(s.lastAt.Add(next + frameSlack))
	}
	later(quietAt)
	return true
}

// frameSlack is how long after a frame's expected time the next look comes,
// so the frame has run by then.
const frameSlack = time.Duration(limits.SettleFrameSlackMsMax) * time.Millisecond

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
