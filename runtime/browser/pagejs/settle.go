package pagejs

import (
	"context"
	"encoding/json"
)

// settleProbeJS is the settling probe: package settle decides from its
// reports (settle.Probe is their shape). It arms (once per document) a
// mutation observer, a scroll listener, navigation listeners and an
// animation-frame counter in the isolated world, and reports the count of
// mutations and scrolls, the time and the animation frames since the last
// one, the ready state, and how many navigations (and downloads) the
// document started since the previous report. The page-side report is what orders things: a
// link or location change starts its navigation before the input that
// caused it is acknowledged, but the browser's events about it may reach
// Ghostlight a little later; and a form submits in a task of its own, after
// the input was acknowledged. The state lives on the isolated world's
// global, which page scripts cannot see.
//
// Frames are counted only from a mutation (within keepMs of a report) until
// frames frames have passed since the last one, so a page at rest runs no
// animation-frame loop of Ghostlight's: before, the counter ran for keepMs
// after every report, 60 frames a second the page would not otherwise render.
// A hold starts the counter itself, before its own frame callback.
//
// With holdMs > 0 the report is a promise that settles, inside the
// animation-frame callback, once the DOM has stayed unchanged for frames
// frames since its last mutation (or no mutation was ever seen), once the
// page let a navigation through, or after holdMs (frames may not run): one
// round trip that ends at the frame instead of polls guessing when it comes.
// Its report says held when a frame ran during it, so the decision knows a
// frame ran after the input (a loaded machine may run none in holdMs).
// The counter's callback was registered before the hold's, so it runs
// first in each frame and the hold sees that frame counted.
const settleProbeJS = `function (keepMs, frames, holdMs) {
  var g = globalThis, s = g.__ghostlightSettle;
  if (!s || s.doc !== document) {
    s = { doc: document, seq: 0, last: -1, frame: 0, mframe: -1, tick: -1, until: 0, need: 0, ticking: false, starts: [], dls: [] };
    var changed = function (n) {
      s.seq += n; s.last = performance.now(); s.mframe = s.frame;
      if (!s.ticking && s.last < s.until) { s.ticking = true; requestAnimationFrame(s.step); }
    };
    new MutationObserver(function (rs) { changed(rs.length); })
      .observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    // A scroll is a change too: a virtualized list renders from its event.
    addEventListener('scroll', function () { changed(1); }, { capture: true, passive: true });
    addEventListener('submit', function (e) { s.starts.push(e); }, true);
    if (g.navigation && navigation.addEventListener) navigation.addEventListener('navigate', function (e) {
      // downloadRequest is null for a navigation, the file name ("" when
      // none is given) for a download.
      if (e.downloadRequest === null || e.downloadRequest === undefined) s.starts.push(e); else s.dls.push(e);
    });
    s.step = function () {
      s.frame++;
      s.tick = performance.now();
      if (s.tick < s.until && s.frame - s.mframe < s.need) requestAnimationFrame(s.step); else s.ticking = false;
    };
    g.__ghostlightSettle = s;
  }
  s.until = performance.now() + keepMs;
  s.need = frames;
  var report = function (held) {
    var started = 0, downloads = 0;
    for (var i = 0; i < s.starts.length; i++) if (!s.starts[i].defaultPrevented) started++;
    for (var j = 0; j < s.dls.length; j++) if (!s.dls[j].defaultPrevented) downloads++;
    s.starts = [];
    s.dls = [];
    var now = performance.now();
    return { seq: s.seq, ago: s.last < 0 ? -1 : now - s.last, frames: s.mframe < 0 ? -1 : s.frame - s.mframe,
      tick: s.tick < 0 ? -1 : now - s.tick, ready: document.readyState, started: started, downloads: downloads, held: !!held };
  };
  if (!(holdMs > 0)) return report();
  if (!s.ticking) { s.ticking = true; requestAnimationFrame(s.step); }
  var end = performance.now() + holdMs, f0 = s.frame;
  return new Promise(function (resolve) {
    var done = false, timer = 0;
    var check = function () {
      if (done) return;
      if (s.mframe < 0 || s.frame - s.mframe >= frames || s.starts.length > 0 || performance.now() >= end) {
        done = true; clearTimeout(timer); resolve(report(true)); return;
      }
      requestAnimationFrame(check);
    };
    timer = setTimeout(function () { if (!done) { done = true; resolve(report(s.frame > f0)); } }, holdMs);
    requestAnimationFrame(check);
  });
}`

// SettleProbe runs the settling probe (settleProbeJS) and returns its report
// undecoded: keepMs is how long the page keeps counting animation frames
// after a mutation, frames how many it counts. Like every call of the
// world, it installs the world when needed and is retried once when the
// document was replaced before it ran.
func (w *World) SettleProbe(ctx context.Context, keepMs float64, frames int) (json.RawMessage, error) {
	return w.call(ctx, settleProbeJS, keepMs, frames, 0)
}

// SettleProbeOnce is SettleProbe sent exactly once (callOnce): when the
// installation it was sent to is gone it fails instead of installing again
// and repeating it, since a repeat would run after the messages the caller
// ordered behind it. A non-empty mark (browser.NewSendMark) rides in the
// call as an argument the probe ignores, so the socket tap sees it written.
func (w *World) SettleProbeOnce(ctx context.Context, keepMs float64, frames int, mark string) (json.RawMessage, error) {
	if mark == "" {
		return w.callOnce(ctx, settleProbeJS, keepMs, frames, 0)
	}
	return w.callOnce(ctx, settleProbeJS, keepMs, frames, 0, mark)
}

// SettleHold is the probe that waits in the page, at most holdMs (which
// must be positive), for the DOM to stay unchanged across frames animation
// frames, for a navigation the page let through, or for the bound; its
// report says held when a frame ran during it. One round trip (callAwait).
func (w *World) SettleHold(ctx context.Context, keepMs float64, frames int, holdMs float64) (json.RawMessage, error) {
	return w.callAwait(ctx, settleProbeJS, keepMs, frames, holdMs)
}

// SettleCounter is the state of the probe's animation-frame counter.
type SettleCounter struct {
	Armed   bool // a probe armed this document
	Ticking bool // the counter's frame callback is scheduled
}

// SettleCounterState reads the frame counter's state without touching it:
// once a page is quiet, Ghostlight runs no animation-frame loop in it.
func (w *World) SettleCounterState(ctx context.Context) (SettleCounter, error) {
	var c SettleCounter
	raw, err := w.call(ctx, `function () { var s = globalThis.__ghostlightSettle; return s ? { armed: true, ticking: !!s.ticking } : { armed: false, ticking: false }; }`)
	if err != nil {
		return c, err
	}
	var v struct {
		Armed   bool `json:"armed"`
		Ticking bool `json:"ticking"`
	}
	err = json.Unmarshal(raw, &v)
	c.Armed, c.Ticking = v.Armed, v.Ticking
	return c, err
}
