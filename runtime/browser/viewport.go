package browser

import (
	"context"
	"time"

	"github.com/go-rod/rod/lib/proto"
)

// Windows Ghostlight opens in a browser it launched get a viewport (innerWidth x
// innerHeight) of exactly Config.ViewportWidth x ViewportHeight. Chromium sizes outer
// windows only (--window-size, Target.createTarget, Browser.setWindowBounds); the
// difference is the window's own chrome (87 px of height in new-headless Chromium 156, a
// window manager's decorations when headed). It is measured on the first window of a
// launch and remembered on the process, so later windows are created at the right outer
// size directly; each is still checked once. An attached browser (connect mode) is the
// user's: its windows keep their own size.

// launched returns the process behind c, or nil for an attached browser.
func (c *conn) launched() *process {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.proc
}

// windowFor is the outer size a new window needs for the configured viewport, when this
// connection launched its browser.
func (c *conn) windowFor() (w, h int, ok bool) {
	p := c.launched()
	if p == nil {
		return 0, 0, false
	}
	cfg := c.b.cfg
	p.mu.Lock()
	in := p.insets
	p.mu.Unlock()
	return cfg.ViewportWidth + in[0], cfg.ViewportHeight + in[1], true
}

// fitViewport resizes the tab's fresh window so that its viewport is the configured one,
// and learns the window's chrome for the next window.
func (bd *binding) fitViewport(ctx context.Context) error {
	p := bd.conn.launched()
	if p == nil {
		return nil
	}
	cfg := bd.conn.b.cfg
	want := [2]int{cfg.ViewportWidth, cfg.ViewportHeight}
	g, err := bd.geometry(ctx)
	if err != nil {
		return err
	}
	insets := [2]int{g.WindowWidth - g.ViewportWidth, g.WindowHeight - g.ViewportHeight}
	if g.ViewportWidth == want[0] && g.ViewportHeight == want[1] {
		p.learnInsets(insets)
		return nil
	}
	bc := bd.conn.call(ctx, "")
	win, err := proto.BrowserGetWindowForTarget{TargetID: bd.targetID}.Call(bc)
	if err != nil {
		return classify(ctx, "open", bd.tab.handle, err)
	}
	if win.Bounds != nil && win.Bounds.WindowState != "" && win.Bounds.WindowState != proto.BrowserWindowStateNormal {
		err := proto.BrowserSetWindowBounds{WindowID: win.WindowID,
			Bounds: &proto.BrowserBounds{WindowState: proto.BrowserWindowStateNormal}}.Call(bc)
		if err != nil {
			return classify(ctx, "open", bd.tab.handle, err)
		}
	}
	w, h := want[0]+insets[0], want[1]+insets[1]
	err = proto.BrowserSetWindowBounds{WindowID: win.WindowID,
		Bounds: &proto.BrowserBounds{Width: &w, Height: &h}}.Call(bc)
	if err != nil {
		return classify(ctx, "open", bd.tab.handle, err)
	}
	// The renderer learns its new size asynchronously: read until the viewport is the
	// wanted one, within the observe budget. A window the screen or a window manager
	// will not size (headed) keeps what it got.
	settle, cancel := context.WithTimeout(ctx, cfg.ObserveTimeout)
	defer cancel()
	for {
		g, err = bd.geometry(ctx)
		if err != nil {
			return err
		}
		if g.ViewportWidth == want[0] && g.ViewportHeight == want[1] {
			p.learnInsets([2]int{g.WindowWidth - g.ViewportWidth, g.WindowHeight - g.ViewportHeight})
			return nil
		}
		select {
		case <-settle.Done():
			bd.conn.b.log.Debug("window viewport not fitted", "want_w", want[0], "want_h", want[1],
				"got_w", g.ViewportWidth, "got_h", g.ViewportHeight)
			return nil
		case <-time.After(windowPoll):
		}
	}
}

func (p *process) learnInsets(in [2]int) {
	if in[0] < 0 || in[1] < 0 {
		return
	}
	p.mu.Lock()
	p.insets = in
	p.mu.Unlock()
}
