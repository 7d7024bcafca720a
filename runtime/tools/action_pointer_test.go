package tools

import (
	"math"
	"strings"
	"testing"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

const scrollPage = `<title>Long</title><style>body{margin:0} #pane{height:200px;overflow:auto;border:1px solid}</style>
<h1>Top</h1>
<div id="pane" aria-label="Pane"><div style="height:2000px">inner</div></div>
<div style="height:4000px;width:3000px"></div>
<h2 id="bottom">Bottom heading</h2>
<div style="height:400px"></div>`

func TestScrollAmountRevealAndWheel(t *testing.T) {
	h := newHarness(t)
	srv := actSite(t, map[string]string{"/": scrollPage}, nil)
	tab := h.actOpen(srv.URL + "/")
	var vh float64
	h.actEval(tab, `innerHeight`, &vh)
	// {} scrolls down by a medium step: half the viewport.
	r := h.must("browser_scroll", `{}`)
	var f surface.BrowserScrollFacts
	h.facts(r, &f)
	if !f.Scrolled || f.ScrollX != 0 || math.Abs(float64(f.ScrollY)-vh*scrollFraction("medium")) > 1 || !r.Envelope.RepeatSafe {
		t.Fatalf("default scroll (viewport %v): %s", vh, r.JSON)
	}
	if !strings.Contains(r.Envelope.Summary, "y "+itoa(f.ScrollY)) {
		t.Fatalf("summary does not carry the offset fact: %q", r.Envelope.Summary)
	}
	y0 := f.ScrollY
	r = h.must("browser_scroll", `{"direction":"up","amount":"small"}`)
	f = surface.BrowserScrollFacts{}
	h.facts(r, &f)
	if math.Abs(float64(y0-f.ScrollY)-vh*scrollFraction("small")) > 1 {
		t.Fatalf("up small: %s", r.JSON)
	}
	r = h.must("browser_scroll", `{"direction":"right","amount":"page"}`)
	f = surface.BrowserScrollFacts{}
	h.facts(r, &f)
	if f.ScrollX <= 0 {
		t.Fatalf("right: %s", r.JSON)
	}
	h.must("browser_scroll", `{"direction":"left","amount":"page"}`)
	// Revealing a far target.
	bottom := h.actTarget(tab, "Bottom heading")
	r = h.must("browser_scroll", `{"target":"`+bottom+`"}`)
	f = surface.BrowserScrollFacts{}
	h.facts(r, &f)
	if !f.Scrolled || f.ScrollY < 3000 || f.Target != bottom || !strings.Contains(r.Envelope.Summary, `the "Bottom heading" heading into view`) {
		t.Fatalf("reveal: %s", r.JSON)
	}
	var top float64
	h.actEval(tab, `document.getElementById('bottom').getBoundingClientRect().top`, &top)
	if top < 0 || top > vh {
		t.Fatalf("revealed heading at %v, viewport %v", top, vh)
	}
	// Already in view: nothing moves, no effect.
	r = h.must("browser_scroll", `{"target":"`+bottom+`"}`)
	f = surface.BrowserScrollFacts{}
	h.facts(r, &f)
	if f.Scrolled || r.Envelope.Effect != surface.EffectNone {
		t.Fatalf("reveal again: %s", r.JSON)
	}
	// Wheel ticks at a view point over the page, then over an inner pane.
	h.must("browser_execute", `{"script":"scrollTo(0,0)"}`)
	view, v := h.actView(tab)
	x, y := v.FromCSS(10, 50)
	r = h.must("browser_scroll", `{"view":"`+view+`","x":`+itoa(int(x))+`,"y":`+itoa(int(y))+`,"ticks":3,"direction":"down"}`)
	f = surface.BrowserScrollFacts{}
	h.facts(r, &f)
	if !f.Scrolled || f.ScrollY != 3*surface.WheelTickPxMax || r.Envelope.Effect != surface.EffectApplied {
		t.Fatalf("wheel on the page: %s", r.JSON)
	}
	// The view is stale now (the page scrolled): refused, nothing dispatched.
	actExpect(t, h.call("browser_scroll", `{"view":"`+view+`","x":1,"y":1,"ticks":1,"direction":"up"}`), surface.StatusFailed, surface.EffectNone, surface.ReasonStaleView)
	h.must("browser_execute", `{"script":"scrollTo(0,0)"}`)
	view, v = h.actView(tab)
	px, py := h.actImagePoint(tab, v, "pane")
	r = h.must("browser_scroll", `{"view":"`+view+`","x":`+itoa(px)+`,"y":`+itoa(py)+`,"ticks":2}`)
	f = surface.BrowserScrollFacts{}
	h.facts(r, &f)
	var pane float64
	h.actEval(tab, `document.getElementById('pane').scrollTop`, &pane)
	if !f.Scrolled || f.ScrollY != 2*surface.WheelTickPxMax || pane != float64(2*surface.WheelTickPxMax) {
		t.Fatalf("wheel on the pane (pane at %v): %s", pane, r.JSON)
	}
}

const hoverPage = `<title>Hover</title><style>#m:hover + #tip{display:block} #tip{display:none}</style>
<button id="m" onmouseover="window.overs=(window.overs||0)+1">Menu</button><div id="tip">Tip text</div>
<button id="d" disabled onmouseover="window.dis=1">Locked</button>`

func TestHover(t *testing.T) {
	h := newHarness(t)
	srv := actSite(t, map[string]string{"/": hoverPage}, nil)
	tab := h.actOpen(srv.URL + "/")
	r := h.must("browser_hover", `{"target":"`+h.actTarget(tab, "Menu")+`"}`)
	var f surface.BrowserHoverFacts
	h.facts(r, &f)
	if !f.Hovered || !r.Envelope.RepeatSafe || !strings.HasPrefix(r.Envelope.Summary, `Hovered over the "Menu" button`) {
		t.Fatalf("hover: %s", r.JSON)
	}
	var state []any
	h.actEval(tab, `[window.overs, getComputedStyle(document.getElementById('tip')).display]`, &state)
	if state[0] != float64(1) || state[1] != "block" {
		t.Fatalf("page after hover: %v", state)
	}
	// A disabled control can be hovered (its tooltip may say why).
	h.must("browser_hover", `{"selector":{"name":"Locked"}}`)
	view, v := h.actView(tab)
	x, y := v.FromCSS(1, 300)
	r = h.must("browser_hover", `{"view":"`+view+`","x":`+itoa(int(x))+`,"y":`+itoa(int(y))+`}`)
	f = surface.BrowserHoverFacts{}
	h.facts(r, &f)
	if f.View != view || !f.Hovered {
		t.Fatalf("hover point: %s", r.JSON)
	}
	h.actEval(tab, `[window.overs, getComputedStyle(document.getElementById('tip')).display]`, &state)
	if state[1] != "none" {
		t.Fatalf("moving away should end :hover: %v", state)
	}
}

const dragPage = `<title>Board</title><style>.z{width:200px;height:120px;border:1px solid;margin:10px}</style>
<div id="card" draggable="true" ondragstart="event.dataTransfer.setData('text/plain','card-1')" style="width:80px;height:40px;background:#ccc">Card</div>
<div id="done" class="z" role="region" aria-label="Done column"
  ondragover="event.preventDefault()" ondrop="event.preventDefault(); window.dropped = event.dataTransfer.getData('text/plain')">Done</div>
<div id="knob" role="slider" aria-label="Knob" aria-valuenow="0" style="width:30px;height:30px;background:#888;position:absolute;left:300px;top:20px"
  onmousedown="window.downAt=event.clientX"></div>
<script>document.addEventListener('mouseup', e => { window.upAt = e.clientX })</script>`

func TestDragHTML5AndMouse(t *testing.T) {
	h := newHarness(t)
	srv := actSite(t, map[string]string{"/": dragPage}, nil)
	tab := h.actOpen(srv.URL + "/")
	r := h.must("browser_drag", `{"source_target":"`+h.actTarget(tab, "Card")+`","destination_target":"`+h.actTarget(tab, "Done")+`"}`)
	var f surface.BrowserDragFacts
	h.facts(r, &f)
	if !f.Dragged || r.Envelope.RepeatSafe || !strings.Contains(r.Envelope.Summary, `Dragged the "Card"`) || !strings.Contains(r.Envelope.Summary, `onto the "Done column" region`) {
		t.Fatalf("drag: %s", r.JSON)
	}
	if got := h.actEvalString(tab, `window.dropped || ''`); got != "card-1" {
		t.Fatalf("the page saw no drop (got %q)", got)
	}
	h.must("browser_execute", `{"script":"window.dropped = ''"}`)
	// Point to point in a view: the same real drop.
	view, v := h.actView(tab)
	sx, sy := h.actImagePoint(tab, v, "card")
	ex, ey := h.actImagePoint(tab, v, "done")
	r = h.must("browser_drag", `{"view":"`+view+`","start_x":`+itoa(sx)+`,"start_y":`+itoa(sy)+`,"end_x":`+itoa(ex)+`,"end_y":`+itoa(ey)+`}`)
	if got := h.actEvalString(tab, `window.dropped || ''`); got != "card-1" {
		t.Fatalf("point drag: the page saw no drop (got %q): %s", got, r.JSON)
	}
	// A plain mouse drag (a slider) gets press, moves and release.
	kx, ky := h.actImagePoint(tab, v, "knob")
	h.must("browser_drag", `{"view":"`+view+`","start_x":`+itoa(kx)+`,"start_y":`+itoa(ky)+`,"end_x":`+itoa(kx+100)+`,"end_y":`+itoa(ky)+`}`)
	var at []float64
	h.actEval(tab, `[window.downAt, window.upAt]`, &at)
	if len(at) != 2 || at[1]-at[0] < 90 {
		t.Fatalf("mouse drag: %v", at)
	}
	actExpect(t, h.call("browser_drag", `{"view":"`+view+`","start_x":1,"start_y":1,"end_x":99999,"end_y":1}`), surface.StatusFailed, surface.EffectNone, surface.ReasonRegionOutside)
}
