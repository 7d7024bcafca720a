package capture

import (
	"context"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

func benchCtx(b *testing.B) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	b.Cleanup(cancel)
	return ctx
}

// fastest tracks the quickest iteration: on a shared 2-core machine the
// mean mostly measures other load, the minimum what one capture costs.
type fastest struct{ d time.Duration }

func (f *fastest) since(t0 time.Time) {
	if d := time.Since(t0); f.d == 0 || d < f.d {
		f.d = d
	}
}

func (f *fastest) report(b *testing.B) { b.ReportMetric(float64(f.d.Microseconds())/1000, "min-ms") }

// benchCapture runs ReadBinding + Capture of req repeatedly and reports the
// mean encoded size and the fastest iteration.
func benchCapture(b *testing.B, p *rod.Page, req Request) {
	ctx := benchCtx(b)
	var bytes int
	var min fastest
	defer min.report(b)
	b.ResetTimer()
	for b.Loop() {
		t0 := time.Now()
		bind, err := ReadBinding(ctx, p, 1)
		if err != nil {
			b.Fatal(err)
		}
		req.Binding = bind
		shot, err := Capture(ctx, p, req)
		if err != nil {
			b.Fatal(err)
		}
		min.since(t0)
		bytes += len(shot.Data)
	}
	b.ReportMetric(float64(bytes)/float64(b.N), "B/img")
}

func BenchmarkReadBinding(b *testing.B) {
	p := openPage(b, "/text", 1)
	ctx := benchCtx(b)
	var min fastest
	defer min.report(b)
	for b.Loop() {
		t0 := time.Now()
		if _, err := ReadBinding(ctx, p, 1); err != nil {
			b.Fatal(err)
		}
		min.since(t0)
	}
}

// BenchmarkRoundTrip is one bare DevTools round trip, the yardstick for
// ReadBinding on a loaded machine.
func BenchmarkRoundTrip(b *testing.B) {
	p := openPage(b, "/text", 1).Context(benchCtx(b))
	var min fastest
	defer min.report(b)
	for b.Loop() {
		t0 := time.Now()
		if _, err := (proto.RuntimeEvaluate{Expression: "1"}).Call(p); err != nil {
			b.Fatal(err)
		}
		min.since(t0)
	}
}

// BenchmarkViewport: 1280x800 at DPR 1, each format, sparse and text pages.
// Each iteration is ReadBinding + Capture (capture + post-capture binding).
func BenchmarkViewport(b *testing.B) {
	for _, page := range []string{"sparse", "text"} {
		p := openPage(b, "/"+page, 1)
		for _, f := range []Format{PNG, JPEG, WebP} {
			b.Run(page+"/"+string(f), func(b *testing.B) {
				benchCapture(b, p, Request{Kind: Viewport, Format: f, MaxEdge: 1280, MaxBytes: 10 << 20})
			})
		}
	}
}

// BenchmarkViewportRaw is the bare Page.captureScreenshot of the text page,
// with no clip, with the viewport clip Capture uses, and with
// optimizeForSpeed, to show what the clip and the speed flag cost.
func BenchmarkViewportRaw(b *testing.B) {
	p := openPage(b, "/text", 1).Context(benchCtx(b))
	bind, err := ReadBinding(benchCtx(b), p, 1)
	if err != nil {
		b.Fatal(err)
	}
	clip := &proto.PageViewport{X: bind.ScrollX, Y: bind.ScrollY, Width: bind.ViewportWidth, Height: bind.ViewportHeight, Scale: 1}
	for _, c := range []struct {
		name string
		req  proto.PageCaptureScreenshot
	}{
		{"png-noclip", proto.PageCaptureScreenshot{Format: "png"}},
		{"png-clip", proto.PageCaptureScreenshot{Format: "png", Clip: clip}},
		{"png-noclip-optimizeForSpeed", proto.PageCaptureScreenshot{Format: "png", OptimizeForSpeed: true}},
	} {
		b.Run(c.name, func(b *testing.B) {
			var bytes int
			var min fastest
			defer min.report(b)
			for b.Loop() {
				t0 := time.Now()
				res, err := c.req.Call(p)
				if err != nil {
					b.Fatal(err)
				}
				min.since(t0)
				bytes += len(res.Data)
			}
			b.ReportMetric(float64(bytes)/float64(b.N), "B/img")
		})
	}
}

// BenchmarkFullPage: the text page (about 1280x4500 CSS px) fitted to a
// 1568 px longest edge; it renders beyond the viewport.
func BenchmarkFullPage(b *testing.B) {
	p := openPage(b, "/text", 1)
	for _, f := range []Format{PNG, JPEG} {
		b.Run(string(f), func(b *testing.B) {
			benchCapture(b, p, Request{Kind: FullPage, Format: f, MaxEdge: 1568, MaxBytes: 10 << 20})
		})
	}
}

// BenchmarkRegion: a 320x200 region of a viewport view magnified 4x to 1280x800.
func BenchmarkRegion(b *testing.B) {
	p := openPage(b, "/text", 1)
	ctx := benchCtx(b)
	bind, err := ReadBinding(ctx, p, 1)
	if err != nil {
		b.Fatal(err)
	}
	parent, err := Capture(ctx, p, Request{Kind: Viewport, Binding: bind, MaxEdge: 1280, MaxBytes: 10 << 20})
	if err != nil {
		b.Fatal(err)
	}
	benchCapture(b, p, Request{Kind: Region, Parent: parent.View, Area: ImageRect{X: 100, Y: 100, Width: 320, Height: 200}, MaxEdge: 1568, MaxBytes: 10 << 20})
}
