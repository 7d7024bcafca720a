package capture

import (
	"context"
	"fmt"
	"math"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// Shot is one encoded capture and the view that addresses its pixels.
type Shot struct {
	Data   []byte
	MIME   string
	Format Format
	// Quality is the JPEG/WebP quality actually used (0 for PNG).
	Quality int
	View    View
	// Downscaled: the first encoding exceeded MaxBytes and the image was
	// re-captured at a lower quality and/or scale.
	Downscaled bool
	// BeyondViewport: the clip was not wholly visible, so Chromium rendered
	// beyond the viewport, which fires a resize event in the page.
	BeyondViewport bool
	// Captures counts Page.captureScreenshot calls spent.
	Captures int
}

// plan is the clip and pixel density of one capture.
type plan struct {
	clip     Rect
	density  float64 // output image px per CSS px
	dpr      float64 // device px per CSS px when planned
	beyond   bool
	fullPage bool
}

// Capture takes one screenshot of page as described by req and returns the
// image with its view. It never changes emulation or scroll state itself;
// only beyond-viewport captures have a page-visible effect (see Shot).
func Capture(ctx context.Context, page *rod.Page, req Request) (Shot, error) {
	req, err := req.normalized()
	if err != nil {
		return Shot{}, err
	}
	pre := req.Binding
	if !(pre.DeviceScale > 0) {
		if pre, err = ReadBinding(ctx, page, req.Binding.Generation); err != nil {
			return Shot{}, err
		}
	}
	p := page.Context(ctx)
	captures := 0
	for moved := 0; ; moved++ {
		pl, err := planFor(req, pre)
		if err != nil {
			return Shot{}, err
		}
		shot, err := shoot(p, req, pl)
		captures += shot.Captures
		if err != nil {
			return Shot{}, err
		}
		post, err := ReadBinding(ctx, page, pre.Generation)
		if err != nil {
			return Shot{}, err
		}
		// A clip inside the viewport is only right if the viewport did not
		// move while Chromium rendered it. Beyond-viewport captures address
		// the document and themselves change the viewport (scrollbars).
		reason := driftReason(pre, post, true)
		if pl.beyond || reason == ReasonNone {
			shot.View.Binding = post
			shot.Captures = captures
			return shot, nil
		}
		if moved == maxMovedRetries {
			return Shot{}, &Error{Kind: KindMoved, Reason: reason, Detail: "geometry changed during capture"}
		}
		pre = post
	}
}

// planFor chooses the clip and density for req under geometry b.
func planFor(req Request, b Binding) (plan, error) {
	dpr := b.PixelRatio()
	viewport := b.viewportRect()
	fit := func(r Rect, native float64) float64 { // native density, shrunk to fit MaxEdge
		return math.Min(native, float64(req.MaxEdge)/math.Max(r.Width, r.Height))
	}
	var pl plan
	switch req.Kind {
	case Viewport:
		// A pinch-zoomed viewport is shown at dpr*PageScale device px per CSS px.
		pl = plan{clip: viewport}
		pl.density = fit(pl.clip, dpr*b.PageScale)
	case FullPage:
		pl = plan{clip: b.Content, fullPage: true}
		if pl.clip.empty() {
			pl.clip = viewport
		}
		long, short := math.Max(pl.clip.Width, pl.clip.Height), math.Min(pl.clip.Width, pl.clip.Height)
		if req.MaxAspect > 0 && short > 0 && long/short > req.MaxAspect {
			return plan{}, &Error{Kind: KindTooLong, Got: long / short, Limit: req.MaxAspect,
				Detail: fmt.Sprintf("the page is %.0fx%.0f CSS px", pl.clip.Width, pl.clip.Height)}
		}
		pl.density = fit(pl.clip, dpr)
	case Element:
		pl = plan{clip: req.Clip.intersect(b.Content.union(viewport))}
		if pl.clip.empty() {
			return plan{}, &Error{Kind: KindClipEmpty, Detail: "element box lies outside the document"}
		}
		pl.density = fit(pl.clip, dpr)
	case Region:
		if r := StaleReason(req.Parent, b); r != ReasonNone {
			return plan{}, &Error{Kind: KindStale, Reason: r, Detail: "parent view is no longer current"}
		}
		a := req.Area
		clip, err := req.Parent.Region(a.X, a.Y, a.Width, a.Height)
		if err != nil {
			return plan{}, err
		}
		longest := float64(max(a.Width, a.Height))
		outEdge := math.Min(float64(req.MaxEdge), longest*req.Magnify)
		pl = plan{clip: clip, density: outEdge / (longest * req.Parent.Scale), fullPage: req.Parent.FullPage}
	}
	if math.Round(math.Max(pl.clip.Width, pl.clip.Height)*pl.density) < 1 {
		return plan{}, &Error{Kind: KindClipEmpty, Detail: "capture would be smaller than one pixel"}
	}
	pl.beyond = !viewport.contains(pl.clip)
	pl.dpr = dpr
	return pl, nil
}

func (r Rect) union(o Rect) Rect {
	if r.empty() {
		return o
	}
	if o.empty() {
		return r
	}
	x0, y0 := math.Min(r.X, o.X), math.Min(r.Y, o.Y)
	return Rect{X: x0, Y: y0, Width: math.Max(r.right(), o.right()) - x0, Height: math.Max(r.bottom(), o.bottom()) - y0}
}

// shoot captures pl, re-capturing at lower quality or density until the
// encoding fits req.MaxBytes.
func shoot(p *rod.Page, req Request, pl plan) (Shot, error) {
	quality := req.Quality
	density := pl.density
	shot := Shot{Format: req.Format, MIME: req.Format.MIME(), BeyondViewport: pl.beyond}
	for {
		data, w, h, err := captureOnce(p, req.Format, quality, pl, density)
		shot.Captures++
		if err != nil {
			return shot, err
		}
		if obs := observedDensity(pl.clip, density, w, h); obs != density {
			// The page misreports devicePixelRatio: adopt the ratio the image
			// shows, and re-capture if the lie pushed the image past MaxEdge.
			pl.dpr *= obs / density
			if max(w, h) > req.MaxEdge && shot.Captures < maxEncodeAttempts {
				continue
			}
			density = obs
		}
		if len(data) <= req.MaxBytes && max(w, h) <= req.MaxEdge {
			shot.Data, shot.Quality = data, quality
			shot.View = View{
				OriginX: pl.clip.X, OriginY: pl.clip.Y,
				Scale:      1 / density,
				ImageWidth: w, ImageHeight: h,
				FullPage: pl.fullPage,
			}
			return shot, nil
		}
		if shot.Captures >= maxEncodeAttempts {
			return shot, &Error{Kind: KindTooLarge, Got: float64(len(data)), Limit: float64(req.MaxBytes)}
		}
		shot.Downscaled = true
		if req.Format.lossy() && quality > fallbackQuality {
			quality = fallbackQuality
			continue
		}
		// Encoded size tracks pixel count, so shrink both edges by the
		// square root of the overshoot, with margin.
		f := math.Sqrt(float64(req.MaxBytes)/float64(len(data))) * 0.9
		density *= math.Max(0.25, math.Min(0.9, f))
		if math.Round(math.Max(pl.clip.Width, pl.clip.Height)*density) < 1 {
			return shot, &Error{Kind: KindTooLarge, Got: float64(len(data)), Limit: float64(req.MaxBytes)}
		}
	}
}

// captureOnce asks Chromium for pl.clip at density output px per CSS px.
func captureOnce(p *rod.Page, format Format, quality int, pl plan, density float64) ([]byte, int, int, error) {
	call := proto.PageCaptureScreenshot{
		Format:                proto.PageCaptureScreenshotFormat(format),
		Clip:                  &proto.PageViewport{X: pl.clip.X, Y: pl.clip.Y, Width: pl.clip.Width, Height: pl.clip.Height, Scale: density / pl.dpr},
		CaptureBeyondViewport: pl.beyond,
	}
	if format.lossy() {
		call.Quality = &quality
	}
	res, err := call.Call(p)
	if err != nil {
		return nil, 0, 0, protoErr("Page.captureScreenshot", err)
	}
	w, h, err := imageSize(res.Data)
	if err != nil {
		return nil, 0, 0, err
	}
	return res.Data, w, h, nil
}

// observedDensity returns the planned density when the image has the
// planned size (Chromium rounds each edge), or the density the image shows
// when it does not, which happens if the page misreports devicePixelRatio.
func observedDensity(clip Rect, density float64, w, h int) float64 {
	ew, eh := math.Round(clip.Width*density), math.Round(clip.Height*density)
	if math.Abs(ew-float64(w)) <= 1 && math.Abs(eh-float64(h)) <= 1 {
		return density
	}
	return float64(w) / clip.Width
}
