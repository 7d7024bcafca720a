package capture

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"

	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/go-rod/rod/lib/proto"
)

// One browser and one loopback server serve the whole package.
var (
	testBrowser *rod.Browser
	testServer  *httptest.Server
)

func TestMain(m *testing.M) {
	os.Exit(runMain(m))
}

func runMain(m *testing.M) int {
	// The same launch as the executor's (flags, private profile, cleanup).
	b, stopBrowser, err := browser.LaunchRod(context.Background(), browser.Config{Headless: true, Path: os.Getenv("GHOSTLIGHT_BROWSER")})
	if err != nil {
		fmt.Fprintln(os.Stderr, "launch:", err)
		return 1
	}
	defer stopBrowser()
	testBrowser = b
	testServer = httptest.NewServer(http.HandlerFunc(servePage))
	defer testServer.Close()
	return m.Run()
}

var pages = map[string]string{
	// Blocks at known CSS page positions on a 3000 px tall page.
	"/blocks": `<body style="margin:0;width:1200px;height:3000px;background:#fff">
<div style="position:absolute;left:100px;top:100px;width:40px;height:20px;background:#f00"></div>
<div style="position:absolute;left:700px;top:600px;width:30px;height:30px;background:#00f"></div>
<div id=el style="position:absolute;left:200px;top:300px;width:150px;height:50px;background:#0f0"></div>
<div id=low style="position:absolute;left:300px;top:2500px;width:80px;height:40px;background:#f0f"></div>
<div style="position:absolute;left:1000px;top:2900px;width:100px;height:100px;background:#0ff"></div>
</body>`,
	// Two 12x12 buttons one CSS px apart, below the first screen.
	"/buttons": buttonsPage(600, 700),
	// The same near the top-left corner, inside a small zoomed viewport.
	"/buttons-near": buttonsPage(200, 100),
	"/sparse": `<body style="margin:0;font-family:sans-serif"><h1 style="margin:40px">Sign in</h1>
<div style="margin:40px"><input placeholder="Email"> <input placeholder="Password" type=password> <button>Continue</button></div></body>`,
	"/other": `<body>another document</body>`,
}

func buttonsPage(left, top int) string {
	return fmt.Sprintf(`<style>body{margin:0;height:3000px} button{position:absolute;top:%dpx;width:12px;height:12px;padding:0;border:0}</style>
<body><button id=a style="left:%dpx;background:#f00"></button><button id=b style="left:%dpx;background:#00f"></button>
<script>window.__hits=[];document.addEventListener('click',e=>window.__hits.push(e.target.id||e.target.tagName.toLowerCase()))</script></body>`,
		top, left, left+13)
}

func init() {
	var sb strings.Builder
	sb.WriteString(`<body style="margin:20px;font:14px/1.4 serif">`)
	for i := 0; i < 120; i++ {
		fmt.Fprintf(&sb, "<p>%d. The quick brown fox jumps over the lazy dog while the committee reviews clause %d of the agreement, noting that every exception must be documented, signed, and filed before the quarterly deadline.</p>", i, i*7)
	}
	pages["/text"] = sb.String()
}

func servePage(w http.ResponseWriter, r *http.Request) {
	html, ok := pages[r.URL.Path]
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprint(w, "<!doctype html><html>"+html+"</html>")
}

func testCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// openPage opens path in a fresh tab with a 1280x800 viewport at dsf.
func openPage(t testing.TB, path string, dsf float64) *rod.Page {
	t.Helper()
	ctx := testCtx(t)
	p, err := testBrowser.Context(ctx).Page(proto.TargetCreateTarget{URL: testServer.URL + path})
	if err != nil {
		t.Fatal(err)
	}
	p = p.Context(ctx)
	t.Cleanup(func() { _ = p.Context(context.Background()).Close() })
	if err := p.WaitLoad(); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Activate(); err != nil {
		t.Fatal(err)
	}
	setDevice(t, p, dsf)
	return p
}

func setDevice(t testing.TB, p *rod.Page, dsf float64) {
	t.Helper()
	if err := (proto.EmulationSetDeviceMetricsOverride{Width: 1280, Height: 800, DeviceScaleFactor: dsf}).Call(p); err != nil {
		t.Fatal(err)
	}
}

func scrollTo(t testing.TB, p *rod.Page, x, y int) {
	t.Helper()
	p.MustEval(`(x, y) => window.scrollTo(x, y)`, x, y)
}

func readBinding(t testing.TB, p *rod.Page, gen uint64) Binding {
	t.Helper()
	b, err := ReadBinding(testCtx(t), p, gen)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func capture(t testing.TB, p *rod.Page, req Request) Shot {
	t.Helper()
	if req.MaxEdge == 0 {
		req.MaxEdge = 4096
	}
	if req.MaxBytes == 0 {
		req.MaxBytes = 10 << 20
	}
	shot, err := Capture(testCtx(t), p, req)
	if err != nil {
		t.Fatal(err)
	}
	return shot
}

func decodePNG(t testing.TB, data []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// rgbAt reads the pixel holding continuous image point (x, y), 8-bit.
func rgbAt(img image.Image, x, y float64) color.RGBA {
	r, g, b, _ := img.At(int(x), int(y)).RGBA()
	return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 255}
}

// expectColorAtCSS asserts that the image pixel showing CSS page point
// (px, py) has colour want.
func expectColorAtCSS(t *testing.T, img image.Image, v View, px, py float64, want color.RGBA) {
	t.Helper()
	x, y := v.FromCSS(px, py)
	if !v.Contains(x, y) {
		t.Fatalf("CSS (%g,%g) maps to (%g,%g), outside %dx%d image", px, py, x, y, v.ImageWidth, v.ImageHeight)
	}
	if got := rgbAt(img, x, y); got != want {
		t.Errorf("CSS (%g,%g) -> image (%.2f,%.2f): colour %v, want %v", px, py, x, y, got, want)
	}
}

var (
	red     = color.RGBA{255, 0, 0, 255}
	green   = color.RGBA{0, 255, 0, 255}
	blue    = color.RGBA{0, 0, 255, 255}
	magenta = color.RGBA{255, 0, 255, 255}
	cyan    = color.RGBA{0, 255, 255, 255}
	white   = color.RGBA{255, 255, 255, 255}
)
