package tools

// Settling: after an action, wait only while the page is actually changing,
// never for a fixed time. What counts as changing:
//
//   - a main-frame navigation the action requested or started, until the
//     frame stops loading (a 204 answer stops it at once);
//   - network requests issued after the action started, until they finish or
//     fail (event streams, sockets, beacons and media are not waited for);
//   - tabs the page announced it is opening, until they are adopted;
//   - DOM mutations, until none arrived for the quiet window
//     (surface.SettleQuietMsMax). A page that was already mutating when the
//     action began (an animation, a ticking clock) gives no signal, so its
//     mutations are ignored, and mutations alone never hold the page longer
//     than domPatience quiet windows.
//
// When nothing is changing right after the input was acknowledged, settling
// costs one page round trip. Everything is bounded by the call's deadline
// less a small reserve for authoring the result: a request that never
// completes ends the wait there, never later.

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
)

// Settle tuning (not contract bounds).
const (
	// domPatience caps, in quiet windows, how long DOM mutations alone keep a
	// page unsettled (settle_dom_ms).
	domPatience = surface.SettleDomMsMax / surface.SettleQuietMsMax
	// reserveMin and reserveMax bound the part of a call's time kept for
	// observing the landing and authoring the result after settling.
	// probeBudget bounds one page probe, in quiet windows.
	probeBudget = 4
	reserveMin  = 5 * time.Millisecond
	reserveMax  = 100 * time.Millisecond
)

func quietWindow() time.Duration { return time.Duration(surface.SettleQuietMsMax) * time.Millisecond }

// ignoredRequests never hold a page unsettled: they may stay open for the
// page's whole life.
var ignoredRequests = map[proto.NetworkResourceType]bool{
	proto.NetworkResourceTypeEventSource: true,
	proto.NetworkResourceTypeWebSocket:   true,
	proto.NetworkResourceTypePing:        true,
	proto.NetworkResourceTypeMedia:       true,
	proto.NetworkResourceTypePrefetch:    true,
}

// settleJS arms (once per document) a mutation observer and navigation
// listeners in the isolated world, and reports the mutation count, the time
// since the last mutation, the ready state, and how many navigations the
// document started since the previous report. The page-side report is what
// orders things: a link or location change starts its navigation before the
// input that caused it is acknowledged, but the browser's events about it
// may reach Ghostlight a little later; and a form submits in a task of its
// own, after the input was acknowledged. The state lives on the isolated
// world's global, which page scripts cannot see.
const settleJS = `function () {
  var g = globalThis, s = g.__ghostlightSettle;
  if (!s || s.doc !== document) {
    s = { doc: document, seq: 0, last: -1, starts: [] };
    new MutationObserver(function (rs) { s.seq += rs.length; s.last = performance.now(); })
      .observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    addEventListener('submit', function (e) { s.starts.push(e); }, true);
    if (g.navigation && navigation.addEventListener) navigation.addEventListener('navigate', function (e) {
      if (!e.downloadRequest) s.starts.push(e);
    });
    g.__ghostlightSettle = s;
  }
  var started = 0;
  for (var i = 0; i < s.starts.length; i++) if (!s.starts[i].defaultPrevented) started++;
  s.starts = [];
  return { seq: s.seq, ago: s.last < 0 ? -1 : performance.now() - s.last, ready: document.readyState, started: started };
}`

type domProbe struct {
	Seq     int     `json:"seq"`
	Ago     float64 `json:"ago"` // ms since the last mutation; -1 when none was seen
	Ready   string  `json:"ready"`
	Started int     `json:"started"` // navigations (and form submissions) the page let through
}

// probeDOM runs settleJS, bounded by probeBudget: a page whose main thread
// cannot answer that fast is busy, which the caller treats as changing.
func probeDOM(ctx context.Context, w *pagejs.World) (domProbe, error) {
	var p domProbe
	ctx, cancel := context.WithTimeout(ctx, probeBudget*quietWindow())
	defer cancel()
	raw, err := w.Call(ctx, settleJS)
	if err != nil {
		return p, err
	}
	err = json.Unmarshal(raw, &p)
	return p, err
}

// watch observes what an action sets in motion, from just before its input
// is dispatched until the page settles. Its event loop only records; settle
// decides.
type watch struct {
	t     *browser.Tab
	w     *pagejs.World
	frame proto.PageFrameID
	gen0  uint64
	url0  string

	probe    bool // the page probe is armed
	dom      bool // its mutation count is meaningful (the page was quiet before)
	seq0     int
	domStart time.Time

	stop context.CancelFunc
	done chan struct{}
	wake chan struct{} // cap 1: an event arrived

	mu          sync.Mutex
	navigating  bool
	navSeen     bool // a main-frame navigation was announced
	inflight    map[proto.NetworkRequestID]bool
	windowOpens int
	lastEvent   time.Time
}

// startWatch subscribes to the page's events and arms the DOM probe. It must
// run before the input is dispatched; ctx bounds only the setup, the
// subscription lives until close.
func startWatch(ctx context.Context, t *browser.Tab, w *pagejs.World, page *rod.Page) *watch {
	wt := &watch{t: t, w: w, frame: proto.PageFrameID(t.TargetID()), gen0: t.Generation(), url0: t.URL(),
		done: make(chan struct{}), wake: make(chan struct{}, 1), inflight: map[proto.NetworkRequestID]bool{}}
	t.TakeOpened() // tabs opened before this action are not its doing
	sub, stop := context.WithCancel(context.WithoutCancel(ctx))
	wt.stop = stop
	events := page.Context(sub).Event()
	go wt.loop(events)
	// Network events flow only once the domain is on; rod records that it is,
	// so this costs a round trip once per page. No payload is buffered or
	// reported: request bodies (a submitted password, say) never reach us.
	if !page.LoadState(&proto.NetworkEnable{}) {
		zero := 0
		_ = proto.NetworkEnable{MaxTotalBufferSize: &zero, MaxResourceBufferSize: &zero, MaxPostDataSize: &zero}.Call(page.Context(ctx))
	}
	if p, err := probeDOM(ctx, w); err == nil {
		// A page that mutated within the quiet window before the action is
		// animating on its own: its mutations say nothing about the action.
		wt.probe = true
		wt.dom = p.Ago < 0 || p.Ago >= float64(surface.SettleQuietMsMax)
		wt.seq0 = p.Seq
	}
	wt.domStart = time.Now()
	return wt
}

func (wt *watch) close() {
	wt.stop()
	<-wt.done
}

func (wt *watch) loop(events <-chan *rod.Message) {
	defer close(wt.done)
	for m := range events {
		if wt.record(m) {
			select {
			case wt.wake <- struct{}{}:
			default:
			}
		}
	}
}

// record notes one event; it reports whether the event matters to settling.
func (wt *watch) record(m *rod.Message) bool {
	wt.mu.Lock()
	defer wt.mu.Unlock()
	switch m.Method {
	case "Page.frameRequestedNavigation":
		var e proto.PageFrameRequestedNavigation
		if !m.Load(&e) || e.FrameID != wt.frame || e.Disposition != proto.PageClientNavigationDispositionCurrentTab {
			return false
		}
		wt.navigating = true
	case "Page.frameStartedLoading":
		var e proto.PageFrameStartedLoading
		if !m.Load(&e) || e.FrameID != wt.frame {
			return false
		}
		wt.navigating, wt.navSeen = true, true
	case "Page.frameStoppedLoading":
		var e proto.PageFrameStoppedLoading
		if !m.Load(&e) || e.FrameID != wt.frame {
			return false
		}
		wt.navigating = false
	case "Page.navigatedWithinDocument":
		// A fragment or history.pushState move: requested, committed, done.
		var e proto.PageNavigatedWithinDocument
		if !m.Load(&e) || e.FrameID != wt.frame {
			return false
		}
		wt.navigating, wt.navSeen = false, true
	case "Page.frameNavigated":
		var e proto.PageFrameNavigated
		if m.Load(&e) && e.Frame != nil && e.Frame.ID == wt.frame {
			wt.navSeen = true
		}
	case "Page.loadEventFired":
	case "Page.windowOpen":
		wt.windowOpens++
	case "Network.requestWillBeSent":
		var e proto.NetworkRequestWillBeSent
		if !m.Load(&e) || ignoredRequests[e.Type] {
			return false
		}
		wt.inflight[e.RequestID] = true
	case "Network.loadingFinished":
		var e proto.NetworkLoadingFinished
		if !m.Load(&e) || !wt.inflight[e.RequestID] {
			return false
		}
		delete(wt.inflight, e.RequestID)
	case "Network.loadingFailed":
		var e proto.NetworkLoadingFailed
		if !m.Load(&e) || !wt.inflight[e.RequestID] {
			return false
		}
		delete(wt.inflight, e.RequestID)
	default:
		return false
	}
	wt.lastEvent = time.Now()
	return true
}

// settled is what the page did after an action.
type settled struct {
	Opened    []*browser.Tab
	Loading   bool   // a navigation was still loading at the bound
	Pending   bool   // requests the action started were still in flight at the bound
	Readiness string // document.readyState as last seen ("" unknown)
}

// settleContext ends a little before ctx does, keeping time to observe the
// landing and author the result.
func settleContext(ctx context.Context) (context.Context, context.CancelFunc) {
	dl, ok := ctx.Deadline()
	if !ok {
		return context.WithCancel(ctx)
	}
	reserve := min(max(time.Until(dl)/10, reserveMin), reserveMax)
	return context.WithDeadline(ctx, dl.Add(-reserve))
}

// settle waits while the page is changing, bounded by ctx. It returns early,
// without error, when ctx ends (a dialog opening cancels a guarded ctx).
func (wt *watch) settle(ctx context.Context) settled {
	var out settled
	var expect time.Time // when the page reported a navigation it started
	quiet := quietWindow()
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		out.Opened = append(out.Opened, wt.t.TakeOpened()...)
		wt.mu.Lock()
		busy := wt.navigating || len(wt.inflight) > 0 || wt.windowOpens > len(out.Opened)
		out.Loading = wt.navigating
		var wait time.Duration // 0: wait for an event only
		if since := time.Since(wt.lastEvent); !wt.lastEvent.IsZero() && since < quiet {
			busy, wait = true, quiet-since
		}
		navigating := wt.navigating
		wt.mu.Unlock()

		if wt.probe && !navigating && wt.t.Generation() == wt.gen0 {
			p, err := probeDOM(ctx, wt.w)
			switch {
			case err != nil:
				// The document is going away, its main thread is busy, or the
				// call is over: rely on events from now on, after a quiet window.
				wt.probe = false
				busy = true
				if wait == 0 || quiet < wait {
					wait = quiet
				}
			default:
				out.Readiness = p.Ready
				if p.Started > 0 && expect.IsZero() {
					expect = time.Now()
				}
				if wt.dom && p.Seq != wt.seq0 && p.Ago >= 0 && p.Ago < float64(surface.SettleQuietMsMax) &&
					time.Since(wt.domStart) < domPatience*quiet {
					left := quiet - time.Duration(p.Ago*float64(time.Millisecond))
					if !busy || left < wait || wait == 0 {
						wait = left
					}
					busy = true
				}
			}
		} else if wt.t.Generation() != wt.gen0 {
			out.Readiness = ""
		}
		// Events that arrived during the probe count too.
		wt.mu.Lock()
		seen := wt.navSeen
		if wt.navigating || len(wt.inflight) > 0 {
			busy = true
		}
		wt.mu.Unlock()
		// A navigation the page started (or a form it submits) is announced
		// by the browser soon: wait for that, for at most domPatience quiet
		// windows.
		if !expect.IsZero() {
			if left := domPatience*quiet - time.Since(expect); !seen && left > 0 {
				busy = true
				if wait == 0 || left < wait {
					wait = left
				}
			}
		}
		if !busy || ctx.Err() != nil {
			wt.mu.Lock()
			out.Loading = busy && wt.navigating
			out.Pending = busy && !wt.navigating && len(wt.inflight) > 0
			wt.mu.Unlock()
			return out
		}
		var tc <-chan time.Time
		if wait > 0 {
			timer.Reset(wait)
			tc = timer.C
		}
		select {
		case <-wt.wake:
		case <-tc:
		case <-ctx.Done():
			wt.mu.Lock()
			out.Loading = wt.navigating
			out.Pending = !wt.navigating && len(wt.inflight) > 0
			wt.mu.Unlock()
			return out
		}
		if tc != nil && !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
	}
}
