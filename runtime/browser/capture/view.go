package capture

import "math"

// Rect is an axis-aligned rectangle in CSS page px.
type Rect struct {
	X, Y, Width, Height float64
}

func (r Rect) right() float64  { return r.X + r.Width }
func (r Rect) bottom() float64 { return r.Y + r.Height }

func (r Rect) empty() bool { return !(r.Width > 0) || !(r.Height > 0) }

// contains reports whether r holds o entirely (with float slack).
func (r Rect) contains(o Rect) bool {
	return o.X >= r.X-geometryEpsilon && o.Y >= r.Y-geometryEpsilon &&
		o.right() <= r.right()+geometryEpsilon && o.bottom() <= r.bottom()+geometryEpsilon
}

func (r Rect) intersect(o Rect) Rect {
	x0, y0 := math.Max(r.X, o.X), math.Max(r.Y, o.Y)
	x1, y1 := math.Min(r.right(), o.right()), math.Min(r.bottom(), o.bottom())
	if x1 <= x0 || y1 <= y0 {
		return Rect{X: x0, Y: y0}
	}
	return Rect{X: x0, Y: y0, Width: x1 - x0, Height: y1 - y0}
}

func (r Rect) finite() bool {
	for _, f := range [...]float64{r.X, r.Y, r.Width, r.Height} {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return false
		}
	}
	return true
}

// ImageRect is a rectangle in a view's image pixels.
type ImageRect struct {
	X, Y, Width, Height int
}

// View binds one captured image to the geometry it was rendered under.
// Image point (x, y), in continuous image px with (0, 0) the top-left corner
// of the top-left pixel, sits at CSS page px (OriginX + x*Scale, OriginY + y*Scale).
type View struct {
	Binding Binding
	// OriginX, OriginY: CSS page px of image point (0, 0).
	OriginX, OriginY float64
	// Scale: CSS px per image px.
	Scale                   float64
	ImageWidth, ImageHeight int
	// FullPage views address the document independently of scroll and stay
	// current across scrolling.
	FullPage bool
}

// ToCSS maps a continuous image point to CSS page px.
func (v View) ToCSS(x, y float64) (pageX, pageY float64) {
	return v.OriginX + x*v.Scale, v.OriginY + y*v.Scale
}

// PixelToCSS maps the centre of integer image pixel (px, py), the way a
// model names a pixel, to CSS page px.
func (v View) PixelToCSS(px, py int) (pageX, pageY float64) {
	return v.ToCSS(float64(px)+0.5, float64(py)+0.5)
}

// FromCSS is the inverse of ToCSS.
func (v View) FromCSS(pageX, pageY float64) (x, y float64) {
	return (pageX - v.OriginX) / v.Scale, (pageY - v.OriginY) / v.Scale
}

// Contains reports whether image point (x, y) lies inside the image.
func (v View) Contains(x, y float64) bool {
	return x >= 0 && y >= 0 && x < float64(v.ImageWidth) && y < float64(v.ImageHeight)
}

// ToViewport maps an image point to the coordinates Input.dispatchMouseEvent
// takes (CSS viewport px times Binding.InputScale), under the view's own
// binding, which equals the current one whenever Current holds for a
// scroll-bound view.
func (v View) ToViewport(x, y float64) (vx, vy float64) {
	return v.ToViewportAt(v.Binding, x, y)
}

// ToViewportAt maps an image point to viewport coordinates under the scroll
// origin of now; full-page views use it after the page has scrolled.
//
// Chromium hit-tests a dispatched point p as the CSS px square [p, p+1), so
// the result is snapped to the top-left corner of the CSS pixel that holds
// the point: the click then lands on exactly that pixel.
func (v View) ToViewportAt(now Binding, x, y float64) (vx, vy float64) {
	cx, cy := v.cssViewport(now, x, y)
	s := now.InputScale
	if !(s > 0) {
		s = 1
	}
	return cx * s, cy * s
}

// cssViewport is the snapped CSS viewport position of image point (x, y).
func (v View) cssViewport(now Binding, x, y float64) (float64, float64) {
	px, py := v.ToCSS(x, y)
	return math.Floor(px) - now.ScrollX, math.Floor(py) - now.ScrollY
}

// VisibleAt reports whether image point (x, y) is inside the visual
// viewport under now, i.e. whether input dispatched there can reach it.
func (v View) VisibleAt(now Binding, x, y float64) bool {
	vx, vy := v.cssViewport(now, x, y)
	return vx >= 0 && vy >= 0 && vx < now.ViewportWidth && vy < now.ViewportHeight
}

// Region converts a rectangle of this view's image px into the CSS page px
// clip that covers exactly those pixels. The rectangle must have positive
// size and lie wholly inside the image; the error names the broken edge.
func (v View) Region(x, y, w, h int) (Rect, error) {
	switch {
	case w <= 0:
		return Rect{}, &Error{Kind: KindRegionEmpty, Edge: EdgeWidth, Got: float64(w)}
	case h <= 0:
		return Rect{}, &Error{Kind: KindRegionEmpty, Edge: EdgeHeight, Got: float64(h)}
	case x < 0:
		return Rect{}, &Error{Kind: KindRegionOutside, Edge: EdgeLeft, Got: float64(x), Limit: 0}
	case y < 0:
		return Rect{}, &Error{Kind: KindRegionOutside, Edge: EdgeTop, Got: float64(y), Limit: 0}
	case x > v.ImageWidth-w: // x+w > width without overflowing
		return Rect{}, &Error{Kind: KindRegionOutside, Edge: EdgeRight, Got: float64(x) + float64(w), Limit: float64(v.ImageWidth)}
	case y > v.ImageHeight-h:
		return Rect{}, &Error{Kind: KindRegionOutside, Edge: EdgeBottom, Got: float64(y) + float64(h), Limit: float64(v.ImageHeight)}
	}
	px, py := v.ToCSS(float64(x), float64(y))
	return Rect{X: px, Y: py, Width: float64(w) * v.Scale, Height: float64(h) * v.Scale}, nil
}
