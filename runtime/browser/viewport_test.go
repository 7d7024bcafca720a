package browser

import (
	"testing"
	"time"
)

const viewportJS = `JSON.stringify([innerWidth, innerHeight, devicePixelRatio])`

// TestLaunchedWindowsHaveDefaultViewport: every window Ghostlight opens in a launched
// headless browser has the spec's default viewport (1280x800 CSS px at device scale 1),
// the first (whose window chrome is measured) and the next (sized from what was learned),
// and so does a tab a page opens from it. Before, windows kept Chromium's default
// (780x493 of viewport).
func TestLaunchedWindowsHaveDefaultViewport(t *testing.T) {
	b := New(testConfig())
	defer b.Close()
	ws := b.Workspace("viewport")
	first := openTab(t, ws, srv.URL+"/opener")
	second := openTab(t, ws, pageURL("second"))
	for i, tab := range []*Tab{first, second} {
		if got := eval(t, tab, viewportJS); got != "[1280,800,1]" {
			t.Fatalf("window %d: innerWidth, innerHeight, devicePixelRatio = %s", i, got)
		}
	}
	g, err := second.Geometry(ctxT(t, 5*time.Second))
	if err != nil || g.ViewportWidth != 1280 || g.ViewportHeight != 800 || g.WindowHeight < 800 {
		t.Fatalf("geometry %+v %v", g, err)
	}
	click(t, first, 100, 50) // the target=_blank link
	var child *Tab
	eventually(t, "the page's new tab", func() bool {
		if o := first.TakeOpened(); len(o) > 0 {
			child = o[0]
		}
		return child != nil && child.Page() != nil
	})
	eventually(t, "the new tab's page", func() bool { return eval(t, child, "document.title") == "child" })
	if got := eval(t, child, viewportJS); got != "[1280,800,1]" {
		t.Fatalf("tab opened by the page: %s", got)
	}
	// Zoom and resize work against it.
	gz, err := second.Zoom(ctxT(t, 5*time.Second), 200)
	if err != nil || gz.ViewportWidth != 640 || gz.ViewportHeight != 400 {
		t.Fatalf("zoom 200 of 1280x800: %+v %v", gz, err)
	}
	if _, err := second.Zoom(ctxT(t, 5*time.Second), 100); err != nil {
		t.Fatal(err)
	}
	gr, err := second.Resize(ctxT(t, 5*time.Second), 1000, 700)
	if err != nil || gr.WindowWidth != 1000 || gr.WindowHeight != 700 || gr.ViewportWidth != 1000 {
		t.Fatalf("resize: %+v %v", gr, err)
	}
}

// TestConfiguredViewport: Config.ViewportWidth x ViewportHeight (the --viewport flag)
// is what windows get.
func TestConfiguredViewport(t *testing.T) {
	cfg := testConfig()
	cfg.ViewportWidth, cfg.ViewportHeight = 1024, 640
	b := New(cfg)
	defer b.Close()
	ws := b.Workspace("custom")
	for range 2 {
		tab := openTab(t, ws, pageURL("custom"))
		if got := eval(t, tab, viewportJS); got != "[1024,640,1]" {
			t.Fatalf("innerWidth, innerHeight, devicePixelRatio = %s", got)
		}
	}
}
