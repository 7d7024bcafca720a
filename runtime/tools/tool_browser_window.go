package tools

import (
	"context"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
	"github.com/ghostlight-dev/ghostlight/runtime/refusal"
	"github.com/ghostlight-dev/ghostlight/runtime/tools/outcome"
)

// BrowserWindow zooms a tab or resizes its window and reports the geometry
// it observed afterwards. Views bound to the old geometry become stale by
// themselves: their binding no longer matches what capture reads next.
func (h *Handler) BrowserWindow(ctx context.Context, a *surface.BrowserWindowArgs) (*surface.BrowserWindowFacts, surface.Outcome) {
	s := h.session(ctx)
	ctx, cancel := deadline(ctx, 0)
	defer cancel()
	t, r := s.tab(ctx, a.Tab, "")
	if r != nil {
		return nil, outcome.Refused(r)
	}
	f := &surface.BrowserWindowFacts{Tab: t.Handle(), Action: a.Action}
	var g browser.Geometry
	ref := s.onTab(ctx, t, func(ctx context.Context) *surface.Refusal {
		var err error
		if a.Branch() == surface.BrowserWindowBranchZoom {
			f.Percent = *a.Percent
			g, err = t.Zoom(ctx, *a.Percent)
		} else {
			f.Width, f.Height = *a.Width, *a.Height
			g, err = t.Resize(ctx, *a.Width, *a.Height)
		}
		return refusal.For(err, surface.TimeoutMsDefault)
	})
	if ref != nil {
		return nil, outcome.Refused(ref)
	}
	f.Observed = &surface.Geometry{WindowWidth: g.WindowWidth, WindowHeight: g.WindowHeight, ViewportWidth: g.ViewportWidth, ViewportHeight: g.ViewportHeight, ZoomPercent: g.ZoomPercent}
	var text language.Text
	if a.Branch() == surface.BrowserWindowBranchZoom {
		text = language.Zoomed(f.Tab, g.ZoomPercent, g.ViewportWidth, g.ViewportHeight)
	} else {
		text = language.Resized(f.Tab, f.Width, f.Height, g.WindowWidth, g.WindowHeight, g.ViewportWidth, g.ViewportHeight)
	}
	// Setting the same zoom or size again changes nothing more.
	return f, outcome.Done(text, "", surface.EffectApplied, true)
}
