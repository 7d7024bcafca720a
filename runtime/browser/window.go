package browser

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/go-rod/rod/lib/proto"
)

// identityZoom is "no zoom": the percentage at which nothing is emulated.
const identityZoom = 100

// Geometry is the observed size of a tab's window and viewport.
type Geometry struct {
	WindowWidth      int // outer window size, screen px
	WindowHeight     int
	ViewportWidth    int // layout viewport (innerWidth/innerHeight), CSS px
	ViewportHeight   int
	DevicePixelRatio float64 // as the page sees it (zoom included)
	ZoomPercent      int
}

// Geometry observes the tab's window and viewport.
func (t *Tab) Geometry(ctx context.Context) (Geometry, error) {
	var g Geometry
	err := t.hold(ctx, "geometry", func(ctx context.Context, bd *binding) error {
		var err error
		g, err = bd.geometry(ctx)
		return err
	})
	return g, err
}

// ZoomPercent is the zoom currently applied to the tab (100 when none).
func (t *Tab) ZoomPercent() int {
	bd := t.binding()
	if bd == nil {
		return identityZoom
	}
	bd.mu.Lock()
	defer bd.mu.Unlock()
	return bd.zoomLocked()
}

func (bd *binding) zoomLocked() int {
	if bd.zoom == 0 {
		return identityZoom
	}
	return bd.zoom
}

// Zoom emulates browser zoom: the CSS viewport shrinks by the factor and the device pixel
// ratio grows by it, so the page lays out exactly as at that zoom while the window and
// its captured pixels keep their size. It tracks window resizes by itself (the override
// leaves width and height to the window and scales instead).
func (t *Tab) Zoom(ctx context.Context, percent int) (Geometry, error) {
	lim := t.ws.b.cfg.Limits
	if percent <= 0 || !checkRange(percent, lim.ZoomMinPercent, lim.ZoomMaxPercent) {
		return Geometry{}, &Error{Kind: KindInvalidArgument, Op: "zoom", Tab: t.handle,
			Err: fmt.Errorf("zoom %d%% outside %d..%d", percent, lim.ZoomMinPercent, lim.ZoomMaxPercent)}
	}
	var g Geometry
	err := t.hold(ctx, "zoom", func(ctx context.Context, bd *binding) error {
		if err := bd.applyZoom(ctx, percent); err != nil {
			return classify(ctx, "zoom", t.handle, err)
		}
		var err error
		g, err = bd.geometry(ctx)
		return err
	})
	return g, err
}

// RestoreView re-applies the tab's zoom emulation. Code that overrides device metrics
// itself (a full-page capture, say) calls it afterwards.
func (t *Tab) RestoreView(ctx context.Context) error {
	return t.hold(ctx, "zoom", func(ctx context.Context, bd *binding) error {
		bd.mu.Lock()
		z := bd.zoomLocked()
		bd.mu.Unlock()
		return classify(ctx, "zoom", t.handle, bd.applyZoom(ctx, z))
	})
}

func (bd *binding) applyZoom(ctx context.Context, percent int) error {
	bd.mu.Lock()
	cur, base := bd.zoomLocked(), bd.baseDPR
	bd.mu.Unlock()
	if percent == identityZoom {
		if err := (proto.EmulationClearDeviceMetricsOverride{}).Call(bd.call(ctx)); err != nil {
			return err
		}
		bd.mu.Lock()
		bd.zoom = identityZoom
		bd.mu.Unlock()
		return nil
	}
	if base == 0 {
		base = 1
		if cur == identityZoom { // nothing emulated: the page reports the real ratio
			var v [1]float64
			if err := bd.evalJSON(ctx, `JSON.stringify([devicePixelRatio])`, &v); err != nil {
				return err
			}
			if v[0] > 0 {
				base = v[0]
			}
		}
		bd.mu.Lock()
		bd.baseDPR = base
		bd.mu.Unlock()
	}
	f := float64(percent) / identityZoom
	err := proto.EmulationSetDeviceMetricsOverride{
		DeviceScaleFactor: base * f,
		Scale:             &f,
	}.Call(bd.call(ctx))
	if err != nil {
		return err
	}
	bd.mu.Lock()
	bd.zoom = percent
	bd.mu.Unlock()
	return nil
}

// Resize sets the outer size of the tab's window (every tab in that window is affected)
// and returns the geometry observed once the viewport followed.
func (t *Tab) Resize(ctx context.Context, width, height int) (Geometry, error) {
	lim := t.ws.b.cfg.Limits
	if width <= 0 || height <= 0 ||
		!checkRange(width, lim.WindowMinWidth, lim.WindowMaxWidth) ||
		!checkRange(height, lim.WindowMinHeight, lim.WindowMaxHeight) {
		return Geometry{}, &Error{Kind: KindInvalidArgument, Op: "resize", Tab: t.handle,
			Err: fmt.Errorf("window %dx%d outside the configured bounds", width, height)}
	}
	var g Geometry
	err := t.hold(ctx, "resize", func(ctx context.Context, bd *binding) error {
		before, err := bd.geometry(ctx)
		if err != nil {
			return err
		}
		bc := bd.conn.call(ctx, "")
		win, err := proto.BrowserGetWindowForTarget{TargetID: bd.targetID}.Call(bc)
		if err != nil {
			return classify(ctx, "resize", t.handle, err)
		}
		if win.Bounds != nil && win.Bounds.WindowState != "" && win.Bounds.WindowState != proto.BrowserWindowStateNormal {
			// Bounds can only change in the normal state.
			err := proto.BrowserSetWindowBounds{WindowID: win.WindowID,
				Bounds: &proto.BrowserBounds{WindowState: proto.BrowserWindowStateNormal}}.Call(bc)
			if err != nil {
				return classify(ctx, "resize", t.handle, err)
			}
		}
		w, h := width, height
		err = proto.BrowserSetWindowBounds{WindowID: win.WindowID,
			Bounds: &proto.BrowserBounds{Width: &w, Height: &h}}.Call(bc)
		if err != nil {
			return classify(ctx, "resize", t.handle, err)
		}
		// The renderer learns the new size asynchronously: read until the viewport moved
		// (or there was nothing to move), within the observe budget.
		settle, cancel := context.WithTimeout(ctx, bd.conn.b.cfg.ObserveTimeout)
		defer cancel()
		for {
			g, err = bd.geometry(ctx)
			if err != nil {
				return err
			}
			sameWindow := before.WindowWidth == g.WindowWidth && before.WindowHeight == g.WindowHeight
			moved := g.ViewportWidth != before.ViewportWidth || g.ViewportHeight != before.ViewportHeight
			if sameWindow || moved || settle.Err() != nil {
				return nil
			}
			select {
			case <-settle.Done():
			case <-time.After(windowPoll):
			}
		}
	})
	return g, err
}

func (bd *binding) geometry(ctx context.Context) (Geometry, error) {
	var g Geometry
	win, err := proto.BrowserGetWindowForTarget{TargetID: bd.targetID}.Call(bd.conn.call(ctx, ""))
	if err != nil {
		return g, classify(ctx, "geometry", bd.tab.handle, err)
	}
	if win.Bounds != nil {
		if win.Bounds.Width != nil {
			g.WindowWidth = *win.Bounds.Width
		}
		if win.Bounds.Height != nil {
			g.WindowHeight = *win.Bounds.Height
		}
	}
	var v [3]float64
	if err := bd.evalJSON(ctx, `JSON.stringify([innerWidth, innerHeight, devicePixelRatio])`, &v); err != nil {
		return g, classify(ctx, "geometry", bd.tab.handle, err)
	}
	g.ViewportWidth = int(math.Round(v[0]))
	g.ViewportHeight = int(math.Round(v[1]))
	g.DevicePixelRatio = v[2]
	bd.mu.Lock()
	g.ZoomPercent = bd.zoomLocked()
	bd.mu.Unlock()
	return g, nil
}
