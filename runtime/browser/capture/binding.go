package capture

import (
	"context"
	"math"
	"sync"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// Binding is the tab geometry a view was rendered under. Lengths are CSS px.
type Binding struct {
	Generation uint64
	// ScrollX, ScrollY: document position of the visual viewport's top-left.
	ScrollX, ScrollY float64
	// ViewportWidth, ViewportHeight: visual viewport size, scrollbars excluded.
	ViewportWidth, ViewportHeight float64
	// DeviceScale: device pixels per CSS px at zoom 1 (window.devicePixelRatio / Zoom).
	DeviceScale float64
	// Zoom: Chromium's page zoom factor (CSS to DIP ratio), 1 when absent.
	Zoom float64
	// PageScale: pinch-zoom scale of the visual viewport, 1 when absent.
	PageScale float64
	// InputScale converts CSS viewport px to Input.dispatchMouseEvent
	// coordinates: the `scale` of the tab's Emulation.setDeviceMetricsOverride
	// (1 without one). Under that emulation Chromium takes input in unscaled
	// window px (measured: with scale 1.5, CSS (206,106) is hit at (309,159)).
	InputScale float64
	// Content is the scrollable document area. It is informative (full-page
	// captures use it) and is not part of currency checks.
	Content Rect
}

// PixelRatio is the number of device pixels per CSS px (DeviceScale*Zoom).
func (b Binding) PixelRatio() float64 { return b.DeviceScale * b.Zoom }

// viewportRect is the visible part of the document in CSS page px.
func (b Binding) viewportRect() Rect {
	return Rect{X: b.ScrollX, Y: b.ScrollY, Width: b.ViewportWidth, Height: b.ViewportHeight}
}

// ReadBinding reads the current geometry of page. Page.getLayoutMetrics and
// a Runtime.evaluate of devicePixelRatio (which getLayoutMetrics does not
// report) are sent concurrently, so the cost is one round trip.
func ReadBinding(ctx context.Context, page *rod.Page, generation uint64) (Binding, error) {
	p := page.Context(ctx)
	var (
		metrics *proto.PageGetLayoutMetricsResult
		mErr    error
		wg      sync.WaitGroup
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		metrics, mErr = proto.PageGetLayoutMetrics{}.Call(p)
	}()
	// devicePixelRatio is read in the main world; a page that overrides it
	// can only mislead DeviceScale, and Capture cross-checks it against the
	// image it gets back.
	eval, eErr := proto.RuntimeEvaluate{Expression: "devicePixelRatio", ReturnByValue: true, Silent: true}.Call(p)
	wg.Wait()
	if mErr != nil {
		return Binding{}, protoErr("Page.getLayoutMetrics", mErr)
	}
	if eErr != nil {
		return Binding{}, protoErr("Runtime.evaluate", eErr)
	}
	if eval.ExceptionDetails != nil {
		return Binding{}, &Error{Kind: KindProtocol, Op: "Runtime.evaluate", Detail: eval.ExceptionDetails.Text}
	}
	dpr := eval.Result.Value.Num()
	b, err := bindingFrom(metrics, dpr, generation)
	if err != nil {
		return Binding{}, err
	}
	b.InputScale = emulatedScale(page)
	return b, nil
}

// emulatedScale reads the `scale` of the last device-metrics override sent
// for this page through its rod.Browser. rod records every successful call
// per session, so this costs no round trip; an override sent through another
// DevTools client is not seen.
func emulatedScale(page *rod.Page) float64 {
	var o proto.EmulationSetDeviceMetricsOverride
	if page.LoadState(&o) && o.Scale != nil && *o.Scale > 0 && !math.IsInf(*o.Scale, 0) {
		return *o.Scale
	}
	return 1
}

func bindingFrom(m *proto.PageGetLayoutMetricsResult, dpr float64, generation uint64) (Binding, error) {
	vv := m.CSSVisualViewport
	if vv == nil || m.CSSContentSize == nil {
		return Binding{}, &Error{Kind: KindProtocol, Op: "Page.getLayoutMetrics", Detail: "no CSS viewport metrics"}
	}
	zoom := 1.0
	if vv.Zoom != nil && *vv.Zoom > 0 {
		zoom = *vv.Zoom
	}
	pageScale := vv.Scale
	if pageScale <= 0 {
		pageScale = 1
	}
	if !(dpr > 0) || math.IsInf(dpr, 0) {
		return Binding{}, &Error{Kind: KindProtocol, Op: "Runtime.evaluate", Detail: "devicePixelRatio is not a positive number"}
	}
	c := m.CSSContentSize
	return Binding{
		Generation:     generation,
		ScrollX:        vv.PageX,
		ScrollY:        vv.PageY,
		ViewportWidth:  vv.ClientWidth,
		ViewportHeight: vv.ClientHeight,
		DeviceScale:    dpr / zoom,
		Zoom:           zoom,
		PageScale:      pageScale,
		InputScale:     1,
		Content:        Rect{X: c.X, Y: c.Y, Width: c.Width, Height: c.Height},
	}, nil
}

// Reason says why a view's binding is no longer current.
type Reason int

const (
	ReasonNone        Reason = iota
	ReasonNavigated          // document generation changed
	ReasonScrolled           // scroll origin moved (viewport-bound views only)
	ReasonResized            // viewport size changed
	ReasonDeviceScale        // device scale factor changed
	ReasonZoom               // page zoom or pinch scale changed
)

func (r Reason) String() string {
	switch r {
	case ReasonNone:
		return "current"
	case ReasonNavigated:
		return "navigated"
	case ReasonScrolled:
		return "scrolled"
	case ReasonResized:
		return "resized"
	case ReasonDeviceScale:
		return "device_scale_changed"
	case ReasonZoom:
		return "zoom_changed"
	}
	return "unknown"
}

// geometryEpsilon absorbs float noise in metrics that are otherwise equal.
const geometryEpsilon = 1e-3

func near(a, b float64) bool { return math.Abs(a-b) <= geometryEpsilon }

// StaleReason reports why v can no longer take coordinate input under now,
// or ReasonNone. Full-page views survive scrolling; every other view is tied
// to the scroll origin it was captured at.
func StaleReason(v View, now Binding) Reason {
	return driftReason(v.Binding, now, !v.FullPage)
}

// Current reports whether v's binding still matches now.
func Current(v View, now Binding) bool { return StaleReason(v, now) == ReasonNone }

func driftReason(was, now Binding, scrollBound bool) Reason {
	switch {
	case was.Generation != now.Generation:
		return ReasonNavigated
	case !near(was.DeviceScale, now.DeviceScale):
		return ReasonDeviceScale
	case !near(was.Zoom, now.Zoom) || !near(was.PageScale, now.PageScale) || !near(was.InputScale, now.InputScale):
		return ReasonZoom
	case !near(was.ViewportWidth, now.ViewportWidth) || !near(was.ViewportHeight, now.ViewportHeight):
		return ReasonResized
	case scrollBound && (!near(was.ScrollX, now.ScrollX) || !near(was.ScrollY, now.ScrollY)):
		return ReasonScrolled
	}
	return ReasonNone
}
