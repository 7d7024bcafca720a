package capture

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func sampleView() View {
	return View{
		Binding: Binding{Generation: 3, ScrollX: 10, ScrollY: 400, ViewportWidth: 1280, ViewportHeight: 800, DeviceScale: 2, Zoom: 1, PageScale: 1, InputScale: 1},
		OriginX: 10, OriginY: 400, Scale: 0.5, ImageWidth: 2560, ImageHeight: 1600,
	}
}

func TestRegionRefusals(t *testing.T) {
	v := sampleView()
	cases := []struct {
		name       string
		x, y, w, h int
		kind       Kind
		edge       Edge
	}{
		{"zero width", 0, 0, 0, 10, KindRegionEmpty, EdgeWidth},
		{"negative height", 0, 0, 10, -1, KindRegionEmpty, EdgeHeight},
		{"left", -1, 0, 10, 10, KindRegionOutside, EdgeLeft},
		{"top", 0, -5, 10, 10, KindRegionOutside, EdgeTop},
		{"right", 2551, 0, 10, 10, KindRegionOutside, EdgeRight},
		{"bottom", 0, 1591, 10, 10, KindRegionOutside, EdgeBottom},
		{"overflowing width", 5, 5, math.MaxInt, 10, KindRegionOutside, EdgeRight},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := v.Region(c.x, c.y, c.w, c.h)
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("got %v, want *Error", err)
			}
			if ce.Kind != c.kind || ce.Edge != c.edge {
				t.Fatalf("got kind %v edge %q, want %v %q", ce.Kind, ce.Edge, c.kind, c.edge)
			}
			if !strings.Contains(err.Error(), string(c.edge)) {
				t.Errorf("message %q does not name %q", err, c.edge)
			}
		})
	}
	clip, err := v.Region(2550, 1590, 10, 10) // flush with the bottom-right corner
	if err != nil {
		t.Fatal(err)
	}
	if want := (Rect{X: 10 + 1275, Y: 400 + 795, Width: 5, Height: 5}); clip != want {
		t.Errorf("clip %+v, want %+v", clip, want)
	}
}

func TestViewTransforms(t *testing.T) {
	v := sampleView()
	px, py := v.ToCSS(101, 33)
	if px != 10+50.5 || py != 400+16.5 {
		t.Fatalf("ToCSS = %g,%g", px, py)
	}
	if x, y := v.FromCSS(px, py); x != 101 || y != 33 {
		t.Fatalf("FromCSS(ToCSS) = %g,%g", x, y)
	}
	if cx, cy := v.PixelToCSS(100, 32); cx != 10+50.25 || cy != 400+16.25 {
		t.Fatalf("PixelToCSS = %g,%g", cx, cy)
	}
	// (101,33) is CSS (60.5, 416.5): the CSS pixel holding it starts at
	// (60, 416), i.e. viewport (50, 16).
	if vx, vy := v.ToViewport(101, 33); vx != 50 || vy != 16 {
		t.Fatalf("ToViewport = %g,%g", vx, vy)
	}
	now := v.Binding
	now.ScrollY = 300
	if vx, vy := v.ToViewportAt(now, 101, 33); vx != 50 || vy != 116 {
		t.Fatalf("ToViewportAt = %g,%g", vx, vy)
	}
	if !v.VisibleAt(now, 101, 33) || v.VisibleAt(now, 101, 1599) {
		t.Fatal("VisibleAt wrong")
	}
	// Under a device-metrics `scale` emulation input takes unscaled window px.
	now.InputScale = 1.5
	if vx, vy := v.ToViewportAt(now, 101, 33); vx != 75 || vy != 174 {
		t.Fatalf("ToViewportAt with input scale = %g,%g", vx, vy)
	}
	if !v.VisibleAt(now, 101, 33) {
		t.Fatal("VisibleAt must compare CSS px, not input px")
	}
	for _, c := range []struct {
		x, y float64
		in   bool
	}{{0, 0, true}, {2559.9, 1599.9, true}, {2560, 0, false}, {0, 1600, false}, {-0.1, 5, false}} {
		if v.Contains(c.x, c.y) != c.in {
			t.Errorf("Contains(%g,%g) = %v", c.x, c.y, !c.in)
		}
	}
}

func TestStaleReasons(t *testing.T) {
	base := sampleView()
	full := base
	full.FullPage = true
	cases := []struct {
		name   string
		change func(*Binding)
		want   Reason
		full   Reason
	}{
		{"same", func(*Binding) {}, ReasonNone, ReasonNone},
		{"float noise", func(b *Binding) { b.ScrollY += 1e-9 }, ReasonNone, ReasonNone},
		{"navigated", func(b *Binding) { b.Generation++ }, ReasonNavigated, ReasonNavigated},
		{"scrolled", func(b *Binding) { b.ScrollY += 1 }, ReasonScrolled, ReasonNone},
		{"scrolled x", func(b *Binding) { b.ScrollX = 0 }, ReasonScrolled, ReasonNone},
		{"resized", func(b *Binding) { b.ViewportWidth = 1265 }, ReasonResized, ReasonResized},
		{"device scale", func(b *Binding) { b.DeviceScale = 1 }, ReasonDeviceScale, ReasonDeviceScale},
		{"zoom", func(b *Binding) { b.Zoom = 1.25 }, ReasonZoom, ReasonZoom},
		{"pinch", func(b *Binding) { b.PageScale = 2 }, ReasonZoom, ReasonZoom},
		{"input scale", func(b *Binding) { b.InputScale = 1.5 }, ReasonZoom, ReasonZoom},
		{"content grew", func(b *Binding) { b.Content.Height += 500 }, ReasonNone, ReasonNone},
	}
	for _, c := range cases {
		now := base.Binding
		c.change(&now)
		if got := StaleReason(base, now); got != c.want {
			t.Errorf("%s: viewport view reason %v, want %v", c.name, got, c.want)
		}
		if got := StaleReason(full, now); got != c.full {
			t.Errorf("%s: full-page view reason %v, want %v", c.name, got, c.full)
		}
		if Current(base, now) != (c.want == ReasonNone) {
			t.Errorf("%s: Current disagrees with StaleReason", c.name)
		}
	}
}

func TestRequestValidation(t *testing.T) {
	ok := Request{Kind: Viewport, MaxEdge: 100, MaxBytes: 100}
	cases := []struct {
		name string
		edit func(*Request)
		kind Kind
	}{
		{"format", func(r *Request) { r.Format = "gif" }, KindInvalid},
		{"quality", func(r *Request) { r.Format, r.Quality = JPEG, 101 }, KindInvalid},
		{"max edge", func(r *Request) { r.MaxEdge = 0 }, KindInvalid},
		{"max bytes", func(r *Request) { r.MaxBytes = -1 }, KindInvalid},
		{"magnify", func(r *Request) { r.Magnify = math.Inf(1) }, KindInvalid},
		{"kind", func(r *Request) { r.Kind = 0 }, KindInvalid},
		{"element without box", func(r *Request) { r.Kind = Element }, KindClipEmpty},
		{"element NaN", func(r *Request) { r.Kind, r.Clip = Element, Rect{X: math.NaN(), Width: 5, Height: 5} }, KindClipEmpty},
		{"region without parent", func(r *Request) { r.Kind = Region }, KindInvalid},
	}
	for _, c := range cases {
		r := ok
		c.edit(&r)
		_, err := r.normalized()
		var ce *Error
		if !errors.As(err, &ce) || ce.Kind != c.kind {
			t.Errorf("%s: got %v, want kind %v", c.name, err, c.kind)
		}
	}
	n, err := ok.normalized()
	if err != nil || n.Format != DefaultFormat || n.Quality != 0 || n.Magnify != DefaultMagnify {
		t.Fatalf("defaults: %+v %v", n, err)
	}
	j, err := Request{Kind: Viewport, MaxEdge: 1, MaxBytes: 1, Format: WebP}.normalized()
	if err != nil || j.Quality != DefaultQuality {
		t.Fatalf("lossy default quality: %+v %v", j, err)
	}
}

func TestWebPHeaderErrors(t *testing.T) {
	for _, data := range [][]byte{
		[]byte("RIFF\x00\x00\x00\x00WEBP"),
		append([]byte("RIFF\x00\x00\x00\x00WEBPVP9 "), make([]byte, 20)...),
		[]byte("not an image at all, really"),
	} {
		_, _, err := imageSize(data)
		var ce *Error
		if !errors.As(err, &ce) || ce.Kind != KindDecode {
			t.Errorf("%q: got %v, want decode error", data, err)
		}
	}
}
