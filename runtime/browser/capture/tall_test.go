package capture

import (
	"fmt"
	"math"
	"testing"
)

// tallPage is width x height CSS px with a red band at the top and a blue band at the
// bottom, so an image shows whether the whole page was scaled or only part of it.
func tallPage(height int) string {
	return fmt.Sprintf(`<body style="margin:0;height:%dpx;background:#fff">
<div style="position:absolute;left:0;top:0;width:100%%;height:%dpx;background:#f00"></div>
<div style="position:absolute;left:0;top:%dpx;width:100%%;height:%dpx;background:#00f"></div></body>`,
		height, height/20, height-height/20, height/20)
}

func init() {
	pages["/tall-12k"] = tallPage(12000)
	pages["/tall-670k"] = tallPage(670000)
}

// A tall page within the aspect bound is scaled down whole, keeping its aspect ratio:
// both ends of the page are in the image.
func TestFullPageTallScaledWhole(t *testing.T) {
	p := openPage(t, "/tall-12k", 1)
	b := readBinding(t, p, 1)
	shot := capture(t, p, Request{Kind: FullPage, Binding: b, MaxEdge: 1568, MaxAspect: 16})
	v := shot.View
	img := decodePNG(t, shot.Data)
	t.Logf("page %gx%g -> image %dx%d", b.Content.Width, b.Content.Height, v.ImageWidth, v.ImageHeight)
	if v.ImageHeight != 1568 {
		t.Fatalf("image height %d, want the edge bound 1568", v.ImageHeight)
	}
	wantW := b.Content.Width * 1568 / b.Content.Height
	if math.Abs(float64(v.ImageWidth)-wantW) > 1.5 {
		t.Fatalf("image width %d, want %.1f (aspect kept)", v.ImageWidth, wantW)
	}
	expectColorAtCSS(t, img, v, b.Content.Width/2, 200, red)
	expectColorAtCSS(t, img, v, b.Content.Width/2, b.Content.Height-200, blue)
}

// Past the aspect bound the capture is refused with the bound named, never returned
// as a 3x1568 sliver.
func TestFullPageTooLongRefused(t *testing.T) {
	p := openPage(t, "/tall-670k", 1)
	b := readBinding(t, p, 1)
	_, err := Capture(testCtx(t), p, Request{Kind: FullPage, Binding: b, MaxEdge: 1568, MaxBytes: 1 << 20, MaxAspect: 16})
	e, ok := err.(*Error)
	if !ok || e.Kind != KindTooLong || e.Limit != 16 || e.Got < 400 {
		t.Fatalf("got %v, want KindTooLong over the 16:1 bound", err)
	}
	t.Log(err)
}
