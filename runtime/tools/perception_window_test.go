package tools

import (
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

func TestWindowZoomMakesViewsStale(t *testing.T) {
	h := newHarness(t)
	srv := site(t, map[string]string{"/": `<title>Zoom</title><h1>Zoom me</h1><p style="width:3000px">wide</p>`})
	nav := h.open(srv.URL + "/")
	before, _ := h.screenshot(`{}`)
	// A region of a current view works...
	h.must("browser_screenshot", `{"view":"`+before.View+`","x":0,"y":0,"width":40,"height":20}`)

	r := h.must("browser_window", `{"action":"zoom","percent":150}`)
	var f surface.BrowserWindowFacts
	h.facts(r, &f)
	if f.Tab != nav.Tab || f.Action != "zoom" || f.Percent != 150 || f.Observed == nil || f.Observed.ZoomPercent != 150 {
		t.Fatalf("zoom facts: %s", r.Envelope.Facts)
	}
	if f.Observed.ViewportWidth <= 0 || f.Observed.WindowWidth <= f.Observed.ViewportWidth {
		t.Fatalf("at 150%% the CSS viewport should be narrower than the window: %+v", f.Observed)
	}
	// ...and after the zoom the old view is refused, a new one works.
	h.refuse("browser_screenshot", `{"view":"`+before.View+`","x":0,"y":0,"width":40,"height":20}`, surface.ReasonStaleView)
	after, _ := h.screenshot(`{}`)
	h.must("browser_screenshot", `{"view":"`+after.View+`","x":0,"y":0,"width":40,"height":20}`)

	// Back to 100%: the CSS viewport grows by the factor.
	r100 := h.must("browser_window", `{"action":"zoom","percent":100}`)
	var f100 surface.BrowserWindowFacts
	h.facts(r100, &f100)
	if f100.Observed.ZoomPercent != 100 || f100.Observed.ViewportWidth <= f.Observed.ViewportWidth {
		t.Fatalf("zoom back: %+v after %+v", f100.Observed, f.Observed)
	}
	h.refuse("browser_screenshot", `{"view":"`+after.View+`","x":0,"y":0,"width":40,"height":20}`, surface.ReasonStaleView)
	// The decoder holds the contract's range.
	h.refuse("browser_window", `{"action":"zoom","percent":10}`, surface.ReasonInvalidArguments)
}

func TestWindowResize(t *testing.T) {
	h := newHarness(t)
	srv := site(t, map[string]string{"/": `<title>Resize</title><p>resize</p>`})
	h.open(srv.URL + "/")
	old, _ := h.screenshot(`{}`)
	r := h.must("browser_window", `{"action":"resize","width":900,"height":700}`)
	var f surface.BrowserWindowFacts
	h.facts(r, &f)
	if f.Action != "resize" || f.Width != 900 || f.Height != 700 {
		t.Fatalf("resize facts: %s", r.Envelope.Facts)
	}
	o := f.Observed
	if o.WindowWidth != 900 || o.WindowHeight != 700 || o.ViewportWidth <= 0 || o.ViewportWidth > 900 || o.ViewportHeight > 700 || o.ZoomPercent != 100 {
		t.Fatalf("observed geometry: %+v", o)
	}
	h.refuse("browser_screenshot", `{"view":"`+old.View+`","x":0,"y":0,"width":10,"height":10}`, surface.ReasonStaleView)
	// A new view has the new viewport's size.
	v, _ := h.screenshot(`{}`)
	if v.Width > o.ViewportWidth || v.Width < o.ViewportWidth-20 {
		t.Fatalf("viewport capture %dx%d for a %dx%d viewport", v.Width, v.Height, o.ViewportWidth, o.ViewportHeight)
	}
	h.refuse("browser_window", `{"action":"resize","width":100,"height":700}`, surface.ReasonInvalidArguments)
}

// A click at a point of a view taken before a zoom is refused, and nothing
// reaches the page.
func TestWindowZoomRefusesViewClick(t *testing.T) {
	h := newHarness(t)
	srv := site(t, map[string]string{"/": `<title>Count</title><style>body{margin:0}</style>
		<button style="width:300px;height:200px" onclick="document.getElementById('n').textContent = 'clicked ' + (++window.n || (window.n = 1))">Press</button>
		<p id="n">never clicked</p>`})
	h.open(srv.URL + "/")
	v, _ := h.screenshot(`{}`)
	h.must("browser_window", `{"action":"zoom","percent":125}`)
	h.refuse("browser_click", `{"view":"`+v.View+`","x":50,"y":50}`, surface.ReasonStaleView)
	f, _ := h.read(`{"mode":"visible"}`)
	if !strings.Contains(f.Text, "never clicked") {
		t.Fatalf("a stale view click reached the page: %q", f.Text)
	}
	// A view of the zoomed page clicks.
	v2, _ := h.screenshot(`{}`)
	h.must("browser_click", `{"view":"`+v2.View+`","x":50,"y":50}`)
	f, _ = h.read(`{"mode":"visible"}`)
	if !strings.Contains(f.Text, "clicked 1") {
		t.Fatalf("the click on a current view did not reach the page: %q", f.Text)
	}
}
