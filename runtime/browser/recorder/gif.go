package recorder

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/draw"
	"image/gif"
	"image/jpeg"
	"math"
	"time"
)

// ErrTooLarge is returned when no reduction brings the GIF under the byte
// bound.
var ErrTooLarge = errors.New("recorder: the replay does not fit the byte bound")

// GIF is an encoded replay.
type GIF struct {
	Data           []byte
	Width, Height  int
	FramesKept     int           // frames in the GIF
	FramesCaptured int           // frames the browser sent, plus the final one
	Duration       time.Duration // how long the replay plays, in 10 ms steps
	Scaled         bool          // scaled below the captured size to fit the byte bound
	Thinned        bool          // frames dropped to fit the byte bound
	EncodeTime     time.Duration
}

// palette is the fixed 6x6x6 colour cube: quantizing is a table lookup, never
// a palette search (the stdlib's search costs ~700 ms a frame).
var palette = func() color.Palette {
	p := make(color.Palette, 0, 216)
	for r := 0; r < 6; r++ {
		for g := 0; g < 6; g++ {
			for b := 0; b < 6; b++ {
				p = append(p, color.RGBA{uint8(r * 51), uint8(g * 51), uint8(b * 51), 0xff})
			}
		}
	}
	return p
}()

// level[k][v] is the cube level (0-5) of channel value v at ordered-dither
// position k of a 4x4 Bayer matrix: deterministic per pixel position, so an
// unchanged pixel keeps its index from frame to frame.
var level = func() (t [16][256]uint8) {
	bayer := [16]float64{0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5}
	for k := range 16 {
		off := (bayer[k] + 0.5) / 16 // (0, 1)
		for v := range 256 {
			t[k][v] = uint8(min(5, math.Floor(float64(v)/51+off)))
		}
	}
	return
}()

// Encode renders the stopped recording as an animated GIF of at most
// maxBytes, scaling it down and then dropping frames when it would be
// larger. Frame delays follow the frames' real timestamps in 10 ms steps.
func (r *Recorder) Encode(maxBytes int) (GIF, error) {
	frames, start, end, err := r.snapshot()
	if err != nil {
		return GIF{}, err
	}
	r.mu.Lock()
	captured := r.captured
	r.mu.Unlock()
	t0 := time.Now()
	scale, stride := 1.0, 1
	for attempt := 0; attempt < 10; attempt++ {
		g, err := encode(frames, start, end, scale, stride)
		if err != nil {
			return GIF{}, err
		}
		if len(g.Data) <= maxBytes {
			g.FramesCaptured, g.Scaled, g.Thinned = captured, scale < 1, stride > 1
			g.EncodeTime = time.Since(t0)
			return g, nil
		}
		// Shrink by what the overshoot asks for, alternating between
		// fewer pixels and fewer frames so neither collapses alone.
		if attempt%2 == 0 && g.Width > 64 {
			scale *= max(0.5, min(0.85, math.Sqrt(float64(maxBytes)/float64(len(g.Data)))))
		} else if stride < len(frames) {
			stride *= 2
		} else {
			scale *= 0.7
		}
	}
	return GIF{}, ErrTooLarge
}

// encode renders one attempt: every stride-th frame (and the last) at scale.
func encode(frames []frame, start, end time.Time, scale float64, stride int) (GIF, error) {
	cs := func(t time.Time) int { return int(math.Round(float64(t.Sub(start)) / float64(10*time.Millisecond))) }
	var (
		out         = &gif.GIF{}
		prev, cur   []uint8
		w, h        int
		src         *image.RGBA
		lastCS      int
		kept        int
		emittedOnce bool
	)
	for i, f := range frames {
		if i%stride != 0 && i != len(frames)-1 {
			continue
		}
		at := cs(f.at)
		if !emittedOnce {
			at = 0 // the first frame shows from the start
		} else if at-lastCS < 2 {
			continue // GIF players stretch delays under 20 ms: fold it away
		}
		img, err := jpeg.Decode(bytes.NewReader(f.data))
		if err != nil {
			continue
		}
		b := img.Bounds()
		if w == 0 {
			w = max(1, int(math.Round(float64(b.Dx())*scale)))
			h = max(1, int(math.Round(float64(b.Dy())*scale)))
			prev, cur = make([]uint8, w*h), make([]uint8, w*h)
			out.Config = image.Config{ColorModel: palette, Width: w, Height: h}
		}
		if src == nil || src.Bounds() != b {
			src = image.NewRGBA(b)
		}
		draw.Draw(src, b, img, b.Min, draw.Src)
		quantize(src, cur, w, h)
		rect := image.Rect(0, 0, w, h)
		if emittedOnce {
			var changed bool
			if rect, changed = diff(prev, cur, w, h); !changed {
				continue // a duplicate: the previous frame simply lasts longer
			}
			out.Delay[len(out.Delay)-1] = at - lastCS
		}
		pm := image.NewPaletted(rect, palette)
		for y := rect.Min.Y; y < rect.Max.Y; y++ {
			copy(pm.Pix[(y-rect.Min.Y)*pm.Stride:], cur[y*w+rect.Min.X:y*w+rect.Max.X])
		}
		out.Image = append(out.Image, pm)
		out.Delay = append(out.Delay, 0)
		out.Disposal = append(out.Disposal, gif.DisposalNone)
		prev, cur = cur, prev
		lastCS, emittedOnce = at, true
		kept++
	}
	if kept == 0 {
		return GIF{}, ErrUnavailable
	}
	out.Delay[len(out.Delay)-1] = max(2, cs(end)-lastCS)
	total := 0
	for _, d := range out.Delay {
		total += d
	}
	var buf bytes.Buffer
	if err := gif.EncodeAll(&buf, out); err != nil {
		return GIF{}, err
	}
	return GIF{Data: buf.Bytes(), Width: w, Height: h, FramesKept: kept, Duration: time.Duration(total) * 10 * time.Millisecond}, nil
}

// quantize samples src (nearest neighbour) into a w x h index buffer over
// the fixed palette, with ordered dithering.
func quantize(src *image.RGBA, dst []uint8, w, h int) {
	b := src.Bounds()
	sw, sh := b.Dx(), b.Dy()
	for y := range h {
		sy := min(sh-1, y*sh/h)
		row := src.Pix[sy*src.Stride:]
		row4 := (y & 3) * 4
		for x := range w {
			sx := min(sw-1, x*sw/w)
			p := row[sx*4 : sx*4+3 : sx*4+3]
			lv := &level[row4+x&3]
			dst[y*w+x] = lv[p[0]]*36 + lv[p[1]]*6 + lv[p[2]]
		}
	}
}

// diff is the bounding rectangle of the pixels that differ.
func diff(a, b []uint8, w, h int) (image.Rectangle, bool) {
	x0, y0, x1, y1 := w, h, -1, -1
	for y := range h {
		ra, rb := a[y*w:(y+1)*w], b[y*w:(y+1)*w]
		if bytes.Equal(ra, rb) {
			continue
		}
		if y < y0 {
			y0 = y
		}
		y1 = y
		for x := 0; x < x0; x++ {
			if ra[x] != rb[x] {
				x0 = x
				break
			}
		}
		for x := w - 1; x > x1; x-- {
			if ra[x] != rb[x] {
				x1 = x
				break
			}
		}
	}
	if y1 < 0 {
		return image.Rectangle{}, false
	}
	return image.Rect(x0, y0, x1+1, y1+1), true
}
