package capture

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

func TestReadBinding(t *testing.T) {
	p := openPage(t, "/blocks", 1)
	b := readBinding(t, p, 7)
	want := Binding{Generation: 7, ViewportWidth: 1280 - scrollbarWidth(t, p), ViewportHeight: 800, DeviceScale: 1, Zoom: 1, PageScale: 1,
		Content: Rect{Width: 1200 + 0, Height: 3000}}
	if b.Generation != want.Generation || b.ViewportWidth != want.ViewportWidth || b.ViewportHeight != want.ViewportHeight ||
		b.DeviceScale != 1 || b.Zoom != 1 || b.PageScale != 1 || b.InputScale != 1 || b.ScrollX != 0 || b.ScrollY != 0 {
		t.Fatalf("binding %+v, want %+v", b, want)
	}
	if b.Content.Height != 3000 {
		t.Errorf("content %+v", b.Content)
	}
	scrollTo(t, p, 0, 450)
	setDevice(t, p, 2)
	b = readBinding(t, p, 7)
	if b.ScrollY != 450 || b.DeviceScale != 2 || b.PixelRatio() != 2 {
		t.Fatalf("after scroll and DSF 2: %+v", b)
	}
}

// scrollbarWidth is the classic scrollbar width of this page (0 when the
// tab's scrollbars are hidden), as the page itself measures it.
func scrollbarWidth(t testing.TB, p *rod.Page) float64 {
	return p.MustEval(`() => innerWidth - document.documentElement.clientWidth`).Num()
}

func TestViewportCapture(t *testing.T) {
	for _, dsf := range []float64{1, 2} {
		p := openPage(t, "/blocks", dsf)
		scrollTo(t, p, 0, 50)
		b := readBinding(t, p, 1)
		shot := capture(t, p, Request{Kind: Viewport, Binding: b})
		img := decodePNG(t, shot.Data)
		wantW, wantH := int(b.ViewportWidth*dsf), int(800*dsf)
		if got := img.Bounds(); got.Dx() != wantW || got.Dy() != wantH {
			t.Fatalf("dsf %g: image %v, want %dx%d", dsf, got, wantW, wantH)
		}
		v := shot.View
		if v.ImageWidth != wantW || v.ImageHeight != wantH || v.Scale != 1/dsf || v.OriginY != 50 || v.FullPage || shot.BeyondViewport {
			t.Fatalf("dsf %g: view %+v", dsf, v)
		}
		if shot.MIME != "image/png" || shot.Downscaled || shot.Captures != 1 {
			t.Errorf("shot meta %q downscaled=%v captures=%d", shot.MIME, shot.Downscaled, shot.Captures)
		}
		expectColorAtCSS(t, img, v, 120, 110, red)
		expectColorAtCSS(t, img, v, 715, 615, blue)
		expectColorAtCSS(t, img, v, 99, 110, white)
		expectColorAtCSS(t, img, v, 100.2, 100.2, red)
		if !Current(v, readBinding(t, p, 1)) {
			t.Error("fresh view not current")
		}
	}
}

func TestViewportCapturePinchZoom(t *testing.T) {
	p := openPage(t, "/blocks", 1)
	if err := (proto.EmulationSetPageScaleFactor{PageScaleFactor: 2}).Call(p); err != nil {
		t.Fatal(err)
	}
	scrollTo(t, p, 0, 60)
	b := readBinding(t, p, 1)
	if b.PageScale != 2 || b.ViewportWidth != 640 || b.ScrollY != 60 {
		t.Fatalf("pinched binding %+v", b)
	}
	shot := capture(t, p, Request{Kind: Viewport, Binding: b})
	img := decodePNG(t, shot.Data)
	// What the screen shows: 640 x 400 CSS px at 2 device px each (headless hides scrollbars).
	if img.Bounds().Dx() != 1280 || img.Bounds().Dy() != 800 || shot.View.Scale != 0.5 || shot.View.OriginY != 60 {
		t.Fatalf("pinched viewport image %v view %+v", img.Bounds(), shot.View)
	}
	expectColorAtCSS(t, img, shot.View, 100.3, 100.3, red)
	expectColorAtCSS(t, img, shot.View, 139.7, 119.7, red)
	expectColorAtCSS(t, img, shot.View, 99.7, 110, white)
	expectColorAtCSS(t, img, shot.View, 230, 310, green)
}

func TestViewportCaptureFitsMaxEdge(t *testing.T) {
	p := openPage(t, "/blocks", 2)
	b := readBinding(t, p, 1)
	shot := capture(t, p, Request{Kind: Viewport, Binding: b, MaxEdge: 1000})
	v := shot.View
	if max(v.ImageWidth, v.ImageHeight) != 1000 {
		t.Fatalf("image %dx%d, want longest edge 1000", v.ImageWidth, v.ImageHeight)
	}
	img := decodePNG(t, shot.Data)
	if img.Bounds().Dx() != v.ImageWidth || img.Bounds().Dy() != v.ImageHeight {
		t.Fatalf("view %dx%d disagrees with PNG %v", v.ImageWidth, v.ImageHeight, img.Bounds())
	}
	expectColorAtCSS(t, img, v, 120, 110, red)
	expectColorAtCSS(t, img, v, 715, 615, blue)
}

func TestFullPageCapture(t *testing.T) {
	p := openPage(t, "/blocks", 1)
	scrollTo(t, p, 0, 1000)
	b := readBinding(t, p, 4)
	shot := capture(t, p, Request{Kind: FullPage, Binding: b, MaxEdge: 1500})
	v := shot.View
	img := decodePNG(t, shot.Data)
	// The document is as wide as the layout viewport (1280 less any
	// scrollbar) and 3000 px tall: halved to fit 1500.
	wantW := int(math.Round(b.Content.Width / 2))
	if b.Content.Height != 3000 || img.Bounds().Dy() != 1500 || img.Bounds().Dx() != wantW || v.ImageWidth != wantW || v.ImageHeight != 1500 {
		t.Fatalf("full page image %v view %dx%d, want %dx1500", img.Bounds(), v.ImageWidth, v.ImageHeight, wantW)
	}
	if !v.FullPage || !shot.BeyondViewport || v.Scale != 2 || v.OriginX != 0 || v.OriginY != 0 {
		t.Fatalf("view %+v beyond=%v", v, shot.BeyondViewport)
	}
	expectColorAtCSS(t, img, v, 120, 110, red)
	expectColorAtCSS(t, img, v, 340, 2520, magenta)
	expectColorAtCSS(t, img, v, 1050, 2950, cyan)
	// The view carries the geometry after the capture, so it is current,
	// and it stays current when the page scrolls.
	if r := StaleReason(v, readBinding(t, p, 4)); r != ReasonNone {
		t.Fatalf("fresh full-page view stale: %v", r)
	}
	scrollTo(t, p, 0, 2400)
	now := readBinding(t, p, 4)
	if !Current(v, now) {
		t.Fatal("full-page view not current after scroll")
	}
	// A point of the full page maps to the viewport under the new scroll.
	x, y := v.FromCSS(340, 2520)
	if !v.VisibleAt(now, x, y) {
		t.Fatal("magenta block should be visible after scrolling to it")
	}
	vx, vy := v.ToViewportAt(now, x, y)
	hit := p.MustEval(`(x, y) => { const e = document.elementFromPoint(x, y); return e && e.id }`, vx, vy).Str()
	if hit != "low" {
		t.Fatalf("viewport point (%g,%g) hits %q, want the magenta block", vx, vy, hit)
	}
}

func TestElementCapture(t *testing.T) {
	p := openPage(t, "/blocks", 1)
	scrollTo(t, p, 0, 100)
	b := readBinding(t, p, 1)
	shot := capture(t, p, Request{Kind: Element, Binding: b, Clip: Rect{X: 200, Y: 300, Width: 150, Height: 50}})
	img := decodePNG(t, shot.Data)
	if img.Bounds().Dx() != 150 || img.Bounds().Dy() != 50 || shot.BeyondViewport {
		t.Fatalf("element image %v beyond=%v", img.Bounds(), shot.BeyondViewport)
	}
	for _, pt := range [][2]int{{0, 0}, {149, 49}, {75, 25}} {
		if c := rgbAt(img, float64(pt[0]), float64(pt[1])); c != green {
			t.Errorf("pixel %v = %v, want green", pt, c)
		}
	}
	if v := shot.View; v.OriginX != 200 || v.OriginY != 300 || v.Scale != 1 {
		t.Fatalf("view %+v", v)
	}

	// An element below the fold is rendered beyond the viewport.
	low := capture(t, p, Request{Kind: Element, Binding: readBinding(t, p, 1), Clip: Rect{X: 300, Y: 2500, Width: 80, Height: 40}})
	img = decodePNG(t, low.Data)
	if !low.BeyondViewport || img.Bounds().Dx() != 80 || rgbAt(img, 40, 20) != magenta {
		t.Fatalf("below-fold element: beyond=%v bounds=%v centre=%v", low.BeyondViewport, img.Bounds(), rgbAt(img, 40, 20))
	}

	// A box partly off the document is cut to it; one wholly off is refused.
	part := capture(t, p, Request{Kind: Element, Binding: readBinding(t, p, 1), Clip: Rect{X: -50, Y: 300, Width: 100, Height: 20}})
	if part.View.OriginX != 0 || part.View.ImageWidth != 50 {
		t.Errorf("partly outside box: view %+v", part.View)
	}
	_, err := Capture(testCtx(t), p, Request{Kind: Element, Binding: readBinding(t, p, 1), Clip: Rect{X: -500, Y: 300, Width: 100, Height: 20}, MaxEdge: 100, MaxBytes: 1 << 20})
	var ce *Error
	if !errors.As(err, &ce) || ce.Kind != KindClipEmpty {
		t.Fatalf("box outside document: got %v", err)
	}
}

func TestRegionMagnified(t *testing.T) {
	p := openPage(t, "/blocks", 1)
	b := readBinding(t, p, 1)
	parent := capture(t, p, Request{Kind: Viewport, Binding: b, MaxEdge: 1000}).View // 0.78125 image px per CSS px
	// The red block (100,100 40x20) sits near image (78,78); take 40x30 image px around it.
	x0, y0 := parent.FromCSS(90, 90)
	area := ImageRect{X: int(x0), Y: int(y0), Width: 40, Height: 30}
	shot := capture(t, p, Request{Kind: Region, Parent: parent, Area: area, Binding: readBinding(t, p, 1), MaxEdge: 1000})
	v := shot.View
	img := decodePNG(t, shot.Data)
	if img.Bounds().Dx() != 160 || img.Bounds().Dy() != 120 || v.ImageWidth != 160 || v.ImageHeight != 120 {
		t.Fatalf("region image %v view %dx%d, want 160x120 (4x)", img.Bounds(), v.ImageWidth, v.ImageHeight)
	}
	wantOX, wantOY := parent.ToCSS(float64(area.X), float64(area.Y))
	if v.OriginX != wantOX || v.OriginY != wantOY || math.Abs(v.Scale-parent.Scale/4) > 1e-12 {
		t.Fatalf("region view %+v, want origin (%g,%g) scale %g", v, wantOX, wantOY, parent.Scale/4)
	}
	if shot.BeyondViewport || v.FullPage {
		t.Fatalf("region of a viewport view: beyond=%v fullPage=%v", shot.BeyondViewport, v.FullPage)
	}
	// Edges of the red block land where the transform says, to within one
	// magnified pixel (0.32 CSS px).
	expectColorAtCSS(t, img, v, 100.4, 100.4, red)
	expectColorAtCSS(t, img, v, 139.6, 119.6, red)
	expectColorAtCSS(t, img, v, 99.6, 110, white)
	expectColorAtCSS(t, img, v, 140.4, 110, white)
	expectColorAtCSS(t, img, v, 120, 120.4, white)

	// MaxEdge caps the magnified output.
	big := capture(t, p, Request{Kind: Region, Parent: parent, Area: ImageRect{X: 10, Y: 10, Width: 300, Height: 200}, Binding: readBinding(t, p, 1), MaxEdge: 900})
	if big.View.ImageWidth != 900 || big.View.ImageHeight != 600 {
		t.Fatalf("capped region %dx%d, want 900x600", big.View.ImageWidth, big.View.ImageHeight)
	}

	// Refusals come from the parent view's geometry.
	for _, c := range []struct {
		area ImageRect
		kind Kind
		edge Edge
	}{
		{ImageRect{X: 990, Y: 0, Width: 20, Height: 20}, KindRegionOutside, EdgeRight},
		{ImageRect{X: 0, Y: 0, Width: 20, Height: 0}, KindRegionEmpty, EdgeHeight},
	} {
		_, err := Capture(testCtx(t), p, Request{Kind: Region, Parent: parent, Area: c.area, Binding: readBinding(t, p, 1), MaxEdge: 900, MaxBytes: 1 << 20})
		var ce *Error
		if !errors.As(err, &ce) || ce.Kind != c.kind || ce.Edge != c.edge {
			t.Errorf("area %+v: got %v, want %v %s", c.area, err, c.kind, c.edge)
		}
	}

	// A scrolled page makes the parent stale: the region is refused.
	scrollTo(t, p, 0, 10)
	_, err := Capture(testCtx(t), p, Request{Kind: Region, Parent: parent, Area: area, Binding: readBinding(t, p, 1), MaxEdge: 900, MaxBytes: 1 << 20})
	var ce *Error
	if !errors.As(err, &ce) || ce.Kind != KindStale || ce.Reason != ReasonScrolled {
		t.Fatalf("region of stale parent: got %v", err)
	}
}

func TestRegionOfFullPageBeyondViewport(t *testing.T) {
	p := openPage(t, "/blocks", 1)
	full := capture(t, p, Request{Kind: FullPage, Binding: readBinding(t, p, 1), MaxEdge: 1500}).View
	x, y := full.FromCSS(290, 2490)
	shot := capture(t, p, Request{Kind: Region, Parent: full, Area: ImageRect{X: int(x), Y: int(y), Width: 60, Height: 40}, Binding: readBinding(t, p, 1), MaxEdge: 1500})
	if !shot.BeyondViewport || !shot.View.FullPage {
		t.Fatalf("region of full page below the fold: beyond=%v fullPage=%v", shot.BeyondViewport, shot.View.FullPage)
	}
	expectColorAtCSS(t, decodePNG(t, shot.Data), shot.View, 340, 2520, magenta)
}

func TestCurrentAfterChanges(t *testing.T) {
	p := openPage(t, "/blocks", 1)
	shot := capture(t, p, Request{Kind: Viewport, Binding: readBinding(t, p, 1)})
	v := shot.View
	if r := StaleReason(v, readBinding(t, p, 1)); r != ReasonNone {
		t.Fatalf("unchanged page: %v", r)
	}
	p.MustEval(`() => document.body.appendChild(document.createElement('p')).textContent = 'content changes do not move geometry'`)
	if r := StaleReason(v, readBinding(t, p, 1)); r != ReasonNone {
		t.Fatalf("after DOM change: %v", r)
	}
	if r := StaleReason(v, readBinding(t, p, 2)); r != ReasonNavigated {
		t.Fatalf("after navigation (generation 2): %v", r)
	}
	scrollTo(t, p, 0, 300)
	if r := StaleReason(v, readBinding(t, p, 1)); r != ReasonScrolled {
		t.Fatalf("after scroll: %v", r)
	}
	scrollTo(t, p, 0, 0)
	if r := StaleReason(v, readBinding(t, p, 1)); r != ReasonNone {
		t.Fatalf("after scrolling back: %v", r)
	}
	setDevice(t, p, 1.5)
	if r := StaleReason(v, readBinding(t, p, 1)); r != ReasonDeviceScale {
		t.Fatalf("after device scale 1.5: %v", r)
	}
	setDevice(t, p, 1)
	if r := StaleReason(v, readBinding(t, p, 1)); r != ReasonNone {
		t.Fatalf("after restoring device scale: %v", r)
	}
	if err := (proto.EmulationSetPageScaleFactor{PageScaleFactor: 2}).Call(p); err != nil {
		t.Fatal(err)
	}
	if r := StaleReason(v, readBinding(t, p, 1)); r != ReasonZoom {
		t.Fatalf("after pinch zoom: %v", r)
	}
	if err := (proto.EmulationSetPageScaleFactor{PageScaleFactor: 1}).Call(p); err != nil {
		t.Fatal(err)
	}
	if err := (proto.EmulationSetDeviceMetricsOverride{Width: 1000, Height: 800, DeviceScaleFactor: 1}).Call(p); err != nil {
		t.Fatal(err)
	}
	if r := StaleReason(v, readBinding(t, p, 1)); r != ReasonResized {
		t.Fatalf("after resize: %v", r)
	}
	// A real navigation changes the document; the caller's generation says so.
	if err := p.Navigate(testServer.URL + "/other"); err != nil {
		t.Fatal(err)
	}
	if err := p.WaitLoad(); err != nil {
		t.Fatal(err)
	}
	setDevice(t, p, 1)
	if r := StaleReason(v, readBinding(t, p, 2)); r != ReasonNavigated {
		t.Fatalf("after navigating: %v", r)
	}
}

func TestCaptureRetriesWhenGeometryMoved(t *testing.T) {
	p := openPage(t, "/blocks", 1)
	old := readBinding(t, p, 1)
	scrollTo(t, p, 0, 500) // the caller's binding is now out of date
	shot := capture(t, p, Request{Kind: Viewport, Binding: old})
	if shot.Captures != 2 || shot.View.Binding.ScrollY != 500 || shot.View.OriginY != 500 {
		t.Fatalf("captures=%d view %+v", shot.Captures, shot.View)
	}
	expectColorAtCSS(t, decodePNG(t, shot.Data), shot.View, 715, 615, blue)

	// A zero Binding makes Capture read the geometry itself.
	z := capture(t, p, Request{Kind: Viewport, Binding: Binding{Generation: 9}})
	if z.Captures != 1 || z.View.Binding.Generation != 9 || z.View.OriginY != 500 {
		t.Fatalf("zero binding: captures=%d view %+v", z.Captures, z.View)
	}
}

func TestDevicePixelRatioMisreportedByPage(t *testing.T) {
	p := openPage(t, "/blocks", 1)
	p.MustEval(`() => { Object.defineProperty(window, 'devicePixelRatio', {get: () => 3}) }`)
	b := readBinding(t, p, 1)
	if b.DeviceScale != 3 {
		t.Fatalf("expected the page's lie to reach the binding, got %g", b.DeviceScale)
	}
	shot := capture(t, p, Request{Kind: Viewport, Binding: b, MaxEdge: 2000})
	img := decodePNG(t, shot.Data)
	// The image shows the true ratio; the view follows the image.
	if math.Abs(float64(img.Bounds().Dx())*shot.View.Scale-b.ViewportWidth) > 1 {
		t.Fatalf("image %v with scale %g does not cover the %g px viewport", img.Bounds(), shot.View.Scale, b.ViewportWidth)
	}
	expectColorAtCSS(t, img, shot.View, 120, 110, red)
	expectColorAtCSS(t, img, shot.View, 715, 615, blue)

	// A ratio understated enough to push the image past MaxEdge costs one
	// re-capture at the true ratio.
	p.MustEval(`() => { Object.defineProperty(window, 'devicePixelRatio', {get: () => 0.5}) }`)
	shot = capture(t, p, Request{Kind: Viewport, Binding: readBinding(t, p, 1), MaxEdge: 1000})
	img = decodePNG(t, shot.Data)
	if shot.Captures != 2 || img.Bounds().Dx() > 1000 || img.Bounds().Dx() != shot.View.ImageWidth {
		t.Fatalf("understated ratio: captures=%d image %v view %+v", shot.Captures, img.Bounds(), shot.View)
	}
	expectColorAtCSS(t, img, shot.View, 120, 110, red)
	expectColorAtCSS(t, img, shot.View, 715, 615, blue)
}

func TestFormats(t *testing.T) {
	p := openPage(t, "/sparse", 1)
	for _, f := range []Format{PNG, JPEG, WebP} {
		shot := capture(t, p, Request{Kind: Viewport, Binding: readBinding(t, p, 1), Format: f, MaxEdge: 640})
		w, h, err := imageSize(shot.Data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if w != 640 || h != shot.View.ImageHeight || shot.View.ImageWidth != 640 || shot.MIME != f.MIME() {
			t.Fatalf("%s: %dx%d view %dx%d mime %s", f, w, h, shot.View.ImageWidth, shot.View.ImageHeight, shot.MIME)
		}
		if f.lossy() != (shot.Quality == DefaultQuality) {
			t.Errorf("%s: quality %d", f, shot.Quality)
		}
	}
}

func TestMaxBytesDownscale(t *testing.T) {
	p := openPage(t, "/text", 1)
	full := capture(t, p, Request{Kind: Viewport, Binding: readBinding(t, p, 1)})
	limit := len(full.Data) / 3
	shot := capture(t, p, Request{Kind: Viewport, Binding: readBinding(t, p, 1), MaxBytes: limit})
	if !shot.Downscaled || len(shot.Data) > limit || shot.Captures < 2 {
		t.Fatalf("downscaled=%v bytes=%d limit=%d captures=%d", shot.Downscaled, len(shot.Data), limit, shot.Captures)
	}
	img := decodePNG(t, shot.Data)
	v := shot.View
	if img.Bounds().Dx() != v.ImageWidth || v.ImageWidth >= full.View.ImageWidth {
		t.Fatalf("downscaled image %v, view %dx%d, original %d wide", img.Bounds(), v.ImageWidth, v.ImageHeight, full.View.ImageWidth)
	}
	// The smaller image still covers the same viewport.
	if math.Abs(float64(v.ImageWidth)*v.Scale-full.View.Binding.ViewportWidth) > v.Scale {
		t.Fatalf("scale %g x %d px does not cover %g CSS px", v.Scale, v.ImageWidth, full.View.Binding.ViewportWidth)
	}

	// Lossy formats first drop quality.
	j := capture(t, p, Request{Kind: Viewport, Binding: readBinding(t, p, 1), Format: JPEG, Quality: 95})
	jl := len(j.Data) * 3 / 4
	js := capture(t, p, Request{Kind: Viewport, Binding: readBinding(t, p, 1), Format: JPEG, Quality: 95, MaxBytes: jl})
	if !js.Downscaled || js.Quality != fallbackQuality || len(js.Data) > jl {
		t.Fatalf("jpeg: downscaled=%v quality=%d bytes=%d limit=%d", js.Downscaled, js.Quality, len(js.Data), jl)
	}

	// A ceiling nothing can meet is a typed refusal.
	_, err := Capture(testCtx(t), p, Request{Kind: Viewport, Binding: readBinding(t, p, 1), MaxEdge: 1280, MaxBytes: 40})
	var ce *Error
	if !errors.As(err, &ce) || ce.Kind != KindTooLarge || ce.Limit != 40 {
		t.Fatalf("impossible ceiling: %v", err)
	}
}

func TestContextDeadline(t *testing.T) {
	p := openPage(t, "/blocks", 1)
	ctx, cancel := context.WithCancel(testCtx(t))
	cancel()
	_, err := Capture(ctx, p, Request{Kind: Viewport, MaxEdge: 100, MaxBytes: 1 << 20})
	var ce *Error
	if !errors.As(err, &ce) || ce.Kind != KindProtocol || !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled context: %v", err)
	}
}
