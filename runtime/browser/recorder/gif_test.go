package recorder

import (
	"bytes"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"testing"
	"time"
)

// stopped builds a stopped recorder holding n synthetic frames, 100 ms
// apart, of a moving block over a gradient (no browser needed).
func stopped(t testing.TB, n, w, h int, noisy bool) *Recorder {
	t.Helper()
	start := time.Now().Add(-time.Duration(n) * 100 * time.Millisecond)
	r := &Recorder{state: StateStopped, started: start, stopped: start.Add(time.Duration(n) * 100 * time.Millisecond),
		lim: Limits{Retention: time.Minute, MaxFrames: n}, captured: n}
	for i := range n {
		img := image.NewRGBA(image.Rect(0, 0, w, h))
		for y := range h {
			for x := range w {
				c := color.RGBA{uint8(x * 255 / w), uint8(y * 255 / h), 128, 255}
				if noisy {
					c.B = uint8((x*7 + y*13 + i*31) % 256)
				}
				if x >= i*5%w && x < i*5%w+40 && y < 40 {
					c = color.RGBA{0, 0, 0, 255}
				}
				img.SetRGBA(x, y, c)
			}
		}
		var buf bytes.Buffer
		if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 80}); err != nil {
			t.Fatal(err)
		}
		r.frames = append(r.frames, frame{data: buf.Bytes(), at: start.Add(time.Duration(i) * 100 * time.Millisecond)})
	}
	return r
}

func TestEncode(t *testing.T) {
	r := stopped(t, 50, 640, 400, false)
	g, err := r.Encode(1 << 20)
	if err != nil {
		t.Fatal(err)
	}
	d, err := gif.DecodeAll(bytes.NewReader(g.Data))
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Image) != g.FramesKept || g.FramesKept < 2 || d.Config.Width != 640 || d.Config.Height != 400 || g.Scaled || g.Thinned {
		t.Fatalf("%d frames, %+v", len(d.Image), g)
	}
	if g.Duration != 5*time.Second {
		t.Fatalf("duration %v", g.Duration)
	}
	t.Logf("%d frames %dx%d: %d bytes in %v (%.2f ms/frame)", g.FramesKept, g.Width, g.Height, len(g.Data), g.EncodeTime, float64(g.EncodeTime.Microseconds())/1000/float64(g.FramesKept))
}

func TestEncodeFitsBound(t *testing.T) {
	r := stopped(t, 40, 640, 400, true)
	const bound = 200_000
	g, err := r.Encode(bound)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Data) > bound || !(g.Scaled || g.Thinned) {
		t.Fatalf("%d bytes, %+v", len(g.Data), g)
	}
	if _, err := gif.DecodeAll(bytes.NewReader(g.Data)); err != nil {
		t.Fatal(err)
	}
	t.Logf("reduced to %dx%d, %d frames, %d bytes in %v", g.Width, g.Height, g.FramesKept, len(g.Data), g.EncodeTime)
}

func TestDiscardErases(t *testing.T) {
	r := stopped(t, 3, 64, 64, false)
	r.stop = func() {}
	r.Discard()
	if _, err := r.Encode(1 << 20); err != ErrUnavailable {
		t.Fatalf("encode after discard: %v", err)
	}
	if s := r.Status(); s.State != StateDiscarded || s.FramesKept != 0 {
		t.Fatalf("%+v", s)
	}
}
