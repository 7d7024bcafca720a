package capture

import (
	"fmt"
	"image/color"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// cssBox is an element's border box in CSS page px, read by the test.
type cssBox struct{ X, Y, W, H float64 }

func boxOf(t *testing.T, p *rod.Page, id string) cssBox {
	t.Helper()
	r := p.MustEval(`id => { const r = document.getElementById(id).getBoundingClientRect();
		return [r.left + scrollX, r.top + scrollY, r.width, r.height] }`, id).Arr()
	return cssBox{r[0].Num(), r[1].Num(), r[2].Num(), r[3].Num()}
}

// clickAt dispatches a raw press/release at image point (x, y) of v and
// returns the ids of the elements whose click the page saw.
func clickAt(t *testing.T, p *rod.Page, v View, x, y float64) string {
	t.Helper()
	if !v.Contains(x, y) {
		t.Fatalf("point (%g,%g) outside the %dx%d image", x, y, v.ImageWidth, v.ImageHeight)
	}
	vx, vy := v.ToViewport(x, y)
	p.MustEval(`() => { window.__hits = [] }`)
	for _, typ := range []proto.InputDispatchMouseEventType{proto.InputDispatchMouseEventTypeMousePressed, proto.InputDispatchMouseEventTypeMouseReleased} {
		err := proto.InputDispatchMouseEvent{Type: typ, X: vx, Y: vy, Button: proto.InputMouseButtonLeft, ClickCount: 1}.Call(p)
		if err != nil {
			t.Fatal(err)
		}
	}
	return fmt.Sprint(p.MustEval(`() => window.__hits`).Arr())
}

// regionAround returns an image rectangle of v, w x h image px, centred on
// CSS page point (cx, cy).
func regionAround(v View, cx, cy float64, w, h int) ImageRect {
	x, y := v.FromCSS(cx, cy)
	return ImageRect{X: int(x) - w/2, Y: int(y) - h/2, Width: w, Height: h}
}

// TestClickThroughTwoMagnifications is the contract's promise end to end:
// a viewport shot, a region of it, a region of that region, then a click
// computed only from the last image lands on the element it shows, at
// sub-CSS-pixel precision.
func TestClickThroughTwoMagnifications(t *testing.T) {
	for _, dsf := range []float64{1, 2} {
		t.Run(fmt.Sprintf("dpr%g", dsf), func(t *testing.T) {
			p := openPage(t, "/buttons", dsf)
			scrollTo(t, p, 0, 300) // buttons at page y=700 sit at viewport y=400
			clickThroughTwoLevels(t, p, 1000)
		})
	}
	// Zoom the way runtime/browser emulates it: the device pixel ratio grows
	// and the CSS viewport shrinks by the factor (DSF and scale 1.5).
	t.Run("zoom150", func(t *testing.T) {
		p := openPage(t, "/buttons-near", 1)
		before := capture(t, p, Request{Kind: Viewport, Binding: readBinding(t, p, 1)}).View
		f := 1.5
		if err := (proto.EmulationSetDeviceMetricsOverride{DeviceScaleFactor: f, Scale: &f}).Call(p); err != nil {
			t.Fatal(err)
		}
		now := settledBinding(t, p, 1)
		if now.PixelRatio() != 1.5 || now.InputScale != 1.5 {
			t.Fatalf("zoomed binding %+v", now)
		}
		if Current(before, now) {
			t.Fatal("a view taken before the zoom change is still current")
		}
		clickThroughTwoLevels(t, p, 4096)
	})
}

// settledBinding waits until two consecutive reads agree: Chromium applies
// device-metrics overrides over a few frames.
func settledBinding(t *testing.T, p *rod.Page, gen uint64) Binding {
	t.Helper()
	prev := readBinding(t, p, gen)
	for i := 0; i < 50; i++ {
		time.Sleep(20 * time.Millisecond)
		b := readBinding(t, p, gen)
		if b == prev {
			return b
		}
		prev = b
	}
	t.Fatal("geometry did not settle")
	return Binding{}
}

// clickThroughTwoLevels drives buttons a and b (1 CSS px apart) through a
// viewport view fitted to maxEdge and two 4x region captures.
func clickThroughTwoLevels(t *testing.T, p *rod.Page, maxEdge int) {
	t.Helper()
	a, b := boxOf(t, p, "a"), boxOf(t, p, "b")
	if gap := b.X - (a.X + a.W); gap != 1 {
		t.Fatalf("fixture: gap between buttons is %g CSS px", gap)
	}

	// Level 0: the viewport (shrunk when maxEdge is below its size).
	v0 := capture(t, p, Request{Kind: Viewport, Binding: readBinding(t, p, 1), MaxEdge: maxEdge}).View
	// Level 1: 60x40 image px around the gap, magnified 4x.
	gapX, midY := a.X+a.W+0.5, a.Y+a.H/2
	v1 := capture(t, p, Request{Kind: Region, Parent: v0, Area: regionAround(v0, gapX, midY, 60, 40), Binding: readBinding(t, p, 1), MaxEdge: 1000}).View
	// Level 2: 40x30 image px of level 1 around the gap, magnified 4x again.
	s2 := capture(t, p, Request{Kind: Region, Parent: v1, Area: regionAround(v1, gapX, midY, 40, 30), Binding: readBinding(t, p, 1), MaxEdge: 1000})
	v2 := s2.View
	if v2.ImageWidth != 160 || v2.ImageHeight != 120 {
		t.Fatalf("level-2 image %dx%d, want 160x120", v2.ImageWidth, v2.ImageHeight)
	}
	density := 1 / v2.Scale // level-2 image px per CSS px (12.5 at DPR 1 fitted to 1000)
	if density < 12 {
		t.Fatalf("level-2 density %g image px per CSS px", density)
	}
	img := decodePNG(t, s2.Data)

	// The transform and the pixels agree: red up to A's right edge, white
	// gap, blue from B's left edge.
	aRight, _ := v2.FromCSS(a.X+a.W, 0)
	bLeft, _ := v2.FromCSS(b.X, 0)
	_, rowY := v2.FromCSS(0, midY)
	for _, c := range []struct {
		x    float64
		want color.RGBA
	}{{aRight - 1.5, red}, {aRight + 1.5, white}, {bLeft - 1.5, white}, {bLeft + 1.5, blue}} {
		if got := rgbAt(img, c.x, rowY); got != c.want {
			t.Errorf("level-2 pixel x=%.1f is %v, want %v", c.x, got, c.want)
		}
	}

	// Now act like the model: find the edges in the pixels alone and click
	// relative to them. Pixel i spans image x [i, i+1).
	row := int(rowY)
	redEnd, blueStart := -1, -1 // one past A's last red column; B's first blue column
	for x := 0; x < v2.ImageWidth; x++ {
		c := rgbAt(img, float64(x), float64(row))
		if c == red {
			redEnd = x + 1
		}
		if c == blue && blueStart < 0 {
			blueStart = x
		}
	}
	if redEnd < 0 || blueStart < 0 || blueStart-redEnd < int(density)-2 {
		t.Fatalf("level-2 row %d: red ends at %d, blue starts at %d", row, redEnd, blueStart)
	}
	y := float64(row) + 0.5
	for _, c := range []struct {
		name string
		x    float64
		want string
	}{
		{"well inside A", float64(redEnd) / 2, "[a]"},
		{"1 image px inside A's right edge", float64(redEnd) - 1, "[a]"},
		{"1 image px right of A, in the gap", float64(redEnd) + 1, "[body]"},
		{"1 image px left of B, in the gap", float64(blueStart) - 1, "[body]"},
		{"1 image px inside B's left edge", float64(blueStart) + 1, "[b]"},
	} {
		if got := clickAt(t, p, v2, c.x, y); got != c.want {
			vx, vy := v2.ToViewport(c.x, y)
			t.Errorf("%s: image (%.2f,%.2f) -> viewport (%g,%g) clicked %s, want %s", c.name, c.x, y, vx, vy, got, c.want)
		}
	}
	// The centre of B, computed through the inverse transform of level 1
	// (level 2 is too narrow to hold it), clicks B.
	cx, cy := v1.FromCSS(b.X+b.W/2, b.Y+b.H/2)
	if got := clickAt(t, p, v1, cx, cy); got != "[b]" {
		t.Errorf("centre of B on level 1 clicked %s", got)
	}
}

// A full-page view keeps working after the page scrolls: the click is
// mapped through the current scroll origin.
func TestFullPageClickAfterScroll(t *testing.T) {
	p := openPage(t, "/buttons", 1)
	full := capture(t, p, Request{Kind: FullPage, Binding: readBinding(t, p, 1), MaxEdge: 3000}).View
	a := boxOf(t, p, "a")
	scrollTo(t, p, 0, 500)
	now := readBinding(t, p, 1)
	if !Current(full, now) {
		t.Fatal("full-page view went stale on scroll")
	}
	x, y := full.FromCSS(a.X+a.W/2, a.Y+a.H/2)
	vx, vy := full.ToViewportAt(now, x, y)
	p.MustEval(`() => { window.__hits = [] }`)
	for _, typ := range []proto.InputDispatchMouseEventType{proto.InputDispatchMouseEventTypeMousePressed, proto.InputDispatchMouseEventTypeMouseReleased} {
		if err := (proto.InputDispatchMouseEvent{Type: typ, X: vx, Y: vy, Button: proto.InputMouseButtonLeft, ClickCount: 1}).Call(p); err != nil {
			t.Fatal(err)
		}
	}
	if got := fmt.Sprint(p.MustEval(`() => window.__hits`).Arr()); got != "[a]" {
		t.Fatalf("clicked %s at viewport (%g,%g), want [a]", got, vx, vy)
	}
}
