package browser

import (
	"testing"
	"time"
)

func near(a, b int) bool { return a-b <= 1 && b-a <= 1 }

func TestZoomHalvesViewport(t *testing.T) {
	ws := newWS(t)
	tab := openTab(t, ws, pageURL("zoom"))
	g0, err := tab.Geometry(ctxT(t, 5*time.Second))
	if err != nil || g0.ZoomPercent != 100 || g0.ViewportWidth <= 0 || g0.DevicePixelRatio <= 0 {
		t.Fatalf("initial geometry: %+v %v", g0, err)
	}
	g2, err := tab.Zoom(ctxT(t, 5*time.Second), 200)
	if err != nil {
		t.Fatal(err)
	}
	if g2.ZoomPercent != 200 || !near(g2.ViewportWidth, g0.ViewportWidth/2) || !near(g2.ViewportHeight, g0.ViewportHeight/2) ||
		g2.DevicePixelRatio != 2*g0.DevicePixelRatio || g2.WindowWidth != g0.WindowWidth {
		t.Fatalf("zoom 200: %+v (from %+v)", g2, g0)
	}
	// Zoom survives navigation and follows a resize.
	if _, err := tab.Navigate(ctxT(t, 10*time.Second), pageURL("zoom2"), NavigateOptions{}); err != nil {
		t.Fatal(err)
	}
	gr, err := tab.Resize(ctxT(t, 5*time.Second), g0.WindowWidth+200, g0.WindowHeight)
	if err != nil || !near(gr.ViewportWidth, (g0.ViewportWidth+200)/2) || gr.ZoomPercent != 200 {
		t.Fatalf("resize while zoomed: %+v %v", gr, err)
	}
	g1, err := tab.Zoom(ctxT(t, 5*time.Second), 100)
	if err != nil || g1.ViewportWidth != g0.ViewportWidth+200 || g1.DevicePixelRatio != g0.DevicePixelRatio || g1.ZoomPercent != 100 {
		t.Fatalf("zoom back to 100: %+v %v", g1, err)
	}
	g50, err := tab.Zoom(ctxT(t, 5*time.Second), 50)
	if err != nil || !near(g50.ViewportWidth, 2*g1.ViewportWidth) {
		t.Fatalf("zoom 50 doubles the CSS viewport: %+v %v", g50, err)
	}
	_, err = tab.Zoom(ctxT(t, 5*time.Second), 10)
	wantKind(t, err, KindInvalidArgument)
}

func TestResizeObserved(t *testing.T) {
	ws := newWS(t)
	tab := openTab(t, ws, pageURL("resize"))
	g, err := tab.Resize(ctxT(t, 5*time.Second), 1000, 700)
	if err != nil {
		t.Fatal(err)
	}
	if g.WindowWidth != 1000 || g.WindowHeight != 700 || g.ViewportWidth != 1000 || g.ViewportHeight <= 0 || g.ViewportHeight > 700 {
		t.Fatalf("resize 1000x700: %+v", g)
	}
	g2, err := tab.Resize(ctxT(t, 5*time.Second), 1280, 800)
	if err != nil || g2.WindowWidth != 1280 || g2.ViewportWidth != 1280 || g2.ViewportHeight <= g.ViewportHeight {
		t.Fatalf("resize 1280x800: %+v %v", g2, err)
	}
	_, err = tab.Resize(ctxT(t, 5*time.Second), 100, 100)
	wantKind(t, err, KindInvalidArgument)
}
