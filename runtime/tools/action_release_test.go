package tools

import (
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// Live: what a click does when the point changes between its press and its
// release (pagejs.PressWatch). Each page shows its cover from the target's
// own pointerdown handler, which runs before the browser acknowledges the
// press, so every release is sent while the cover is there: without the
// watch, the release (and the click) would always reach the cover.

// releasePage: a checkbox; on its pointerdown the page shows #cover over
// it (an element that was in the document all along, as Shoelace's listbox
// is). coverFrames > 0 hides the cover again after that many animation
// frames; 0 leaves it. fresh makes the page add a new cover element instead
// (a menu a select opens on mousedown); inert sets pointer-events: none on
// the body (as Radix's modal menus do when they open).
func releasePage(mode string) string {
	return `<title>Release</title><script>window.n = {}; function report(w) { n[w] = (n[w] || 0) + 1; }</script>
<style>#cover{position:fixed;left:0;top:0;width:400px;height:300px;background:#eef;display:none;z-index:5}</style>
<label style="position:absolute;left:60px;top:100px"><input type="checkbox" id="box"> Send newsletter</label>
<div id="cover" role="listbox" aria-label="Sizes"><div role="option">Small</div></div>
<script>
const mode = '` + mode + `';
const box = document.getElementById('box');
let cover = document.getElementById('cover');
box.addEventListener('pointerdown', () => {
  report('press');
  if (mode === 'inert') { document.body.style.pointerEvents = 'none'; return; }
  if (mode === 'fresh') {
    cover = document.createElement('div');
    cover.setAttribute('role', 'menu');
    cover.style.cssText = 'position:fixed;left:0;top:0;width:400px;height:300px;background:#fee;z-index:6';
    document.body.append(cover);
    listen(cover);
    return;
  }
  cover.style.display = 'block';
  if (mode === 'flash') requestAnimationFrame(() => requestAnimationFrame(() => { cover.style.display = 'none'; }));
});
box.addEventListener('click', () => report('box'));
function listen(c) {
  c.addEventListener('mouseup', () => report('cover-up'));
  c.addEventListener('click', () => report('cover-click'));
}
listen(cover);
</script>`
}

// releaseSite opens the page; the counts it returns are what the page's
// own handlers saw, read in the page.
func releaseSite(t *testing.T, mode string) (*harness, string, func() map[string]int) {
	h := newHarness(t)
	srv := actSite(t, map[string]string{"/": releasePage(mode)}, nil)
	tab := h.actOpen(srv.URL + "/")
	return h, tab, func() map[string]int {
		var n map[string]int
		h.actEval(tab, `Object.assign({checked: document.getElementById('box').checked ? 1 : 0}, window.n)`, &n)
		return n
	}
}

// A cover that comes over the point for two frames after the press: the
// button is held until it has gone, and the checkbox gets the click.
func TestClickHoldsTheReleaseWhileACoverFlashes(t *testing.T) {
	h, _, seen := releaseSite(t, "flash")
	h.must("browser_click", `{"selector":{"name":"Send newsletter","role":"checkbox"}}`)
	if n := seen(); n["press"] != 1 || n["box"] != 1 || n["cover-up"] != 0 || n["cover-click"] != 0 || n["checked"] != 1 {
		t.Fatalf("the page saw %v; want press 1, box 1, checked 1, nothing on the cover", n)
	}
}

// A cover that stays: the release is withheld (the cover's handlers never
// see it, nor a click), and the result says the press happened and what
// covered the point.
func TestClickWithholdsTheReleaseFromACoverThatStays(t *testing.T) {
	h, tab, seen := releaseSite(t, "stay")
	r := h.call("browser_click", `{"selector":{"name":"Send newsletter","role":"checkbox"}}`)
	actExpect(t, r, surface.StatusFailed, surface.EffectPartial, surface.ReasonTargetObscured)
	if !strings.Contains(r.Envelope.Summary, "Sizes") {
		t.Fatalf("the refusal does not name the cover: %s", r.JSON)
	}
	// A later click elsewhere on the cover is the page's again: the guard
	// swallowed only the withheld release and its click.
	if n := seen(); n["press"] != 1 || n["box"] != 0 || n["cover-up"] != 0 || n["cover-click"] != 0 || n["checked"] != 0 {
		t.Fatalf("the page saw %v; want press 1 and nothing else", n)
	}
	// The guard took only the withheld release and its click: the page's
	// own events reach the cover again.
	h.actEval(tab, `document.getElementById('cover').dispatchEvent(new MouseEvent('click')) && 1`, new(int))
	if n := seen(); n["cover-click"] != 1 {
		t.Fatalf("after the withheld click the page saw %v; want its own click on the cover", n)
	}
}

// A cover the press itself added (a menu opening on mousedown): the release
// goes out at once and lands on it, as a person's would; the click reports
// success.
func TestClickReleasesOntoWhatThePressOpened(t *testing.T) {
	h, _, seen := releaseSite(t, "fresh")
	h.must("browser_click", `{"selector":{"name":"Send newsletter","role":"checkbox"}}`)
	if n := seen(); n["press"] != 1 || n["cover-up"] != 1 || n["box"] != 0 {
		t.Fatalf("the page saw %v; want press 1, the release on the menu the press opened, no click on the box", n)
	}
}

// The press made the body (and so the target) stop taking pointer events:
// nothing covers the target, and the release goes out at once, to the
// document, as a person's would.
func TestClickReleasesWhenThePressTurnsPointerEventsOff(t *testing.T) {
	h, _, seen := releaseSite(t, "inert")
	h.must("browser_click", `{"selector":{"name":"Send newsletter","role":"checkbox"}}`)
	if n := seen(); n["press"] != 1 || n["cover-up"] != 0 {
		t.Fatalf("the page saw %v; want press 1 and nothing on the cover", n)
	}
}
