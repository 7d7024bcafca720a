package tools

import (
	"context"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/capture"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
	"github.com/ghostlight-dev/ghostlight/runtime/refusal"
	"github.com/ghostlight-dev/ghostlight/runtime/tools/outcome"
	"github.com/ghostlight-dev/ghostlight/runtime/tools/person"
)

// shotFormat is PNG: it keeps text lossless, and a model pays per image
// pixel, not per byte, so a lossy format would only blur glyphs. When a PNG
// passes ImageBytesMax the capture helper scales it down instead.
const shotFormat = capture.PNG

// BrowserScreenshot captures the viewport, the full page, one target, or a
// magnified region of a current view, registers the image as a new view and
// returns it as the one image of the result (never in the facts).
func (h *Handler) BrowserScreenshot(ctx context.Context, a *surface.BrowserScreenshotArgs) (*surface.BrowserScreenshotFacts, surface.Outcome) {
	s := h.session(ctx)
	ctx, cancel := deadline(ctx, a.TimeoutMs)
	defer cancel()
	branch := a.Branch()
	var parent *viewEntry
	tabHandle := a.Tab
	if branch == surface.BrowserScreenshotBranchRegion {
		// A view this session has forgotten (the registry is bounded) is
		// stale; one it never issued is unknown.
		if parent = s.views.get(a.View); parent == nil {
			return nil, outcome.Refused(s.views.missing(a.View, "/view"))
		}
		if tabHandle != "" && tabHandle != parent.tab {
			return nil, outcome.Refused(&surface.Refusal{Reason: surface.ReasonInvalidArguments, Pointer: "/view", Message: language.MsgViewOtherTab})
		}
		tabHandle = parent.tab
	}
	t, r := s.tab(ctx, tabHandle, a.Target)
	if r != nil {
		return nil, outcome.Refused(r)
	}
	var shot capture.Shot
	var ready string
	r = s.onTab(ctx, t, func(ctx context.Context) *surface.Refusal {
		// A credential the person typed (a card number, a code) shows in
		// plain sight: no picture of that document, nor of a later page
		// that repeats it.
		if r := person.Pictured(ctx, s, t); r != nil {
			return r
		}
		req := capture.Request{MaxEdge: surface.ImageEdgePxMax, MaxBytes: surface.ImageBytesMax, Format: shotFormat}
		switch branch {
		case surface.BrowserScreenshotBranchFullPage:
			// Chromium renders beyond the viewport for this and leaves the
			// tab's scrollbars hidden afterwards (measured: neither
			// RestoreView nor Emulation.setScrollbarsHidden brings them
			// back), so earlier viewport views of the tab turn stale while
			// the new full-page view stays current. Restoring them would
			// make the view just returned stale instead.
			req.Kind = capture.FullPage
			req.MaxAspect = surface.FullPageAspectMax
		case surface.BrowserScreenshotBranchTarget:
			req.Kind = capture.Element
			clip, r := s.targetClip(ctx, t, a.Target, a.Selector)
			if r != nil {
				return r
			}
			req.Clip = clip
		case surface.BrowserScreenshotBranchRegion:
			req.Kind, req.Parent = capture.Region, parent.view
			req.Area = capture.ImageRect{X: *a.X, Y: *a.Y, Width: *a.Width, Height: *a.Height}
			req.Magnify = surface.RegionMagnificationMax
		default:
			req.Kind = capture.Viewport
		}
		b, err := capture.ReadBinding(ctx, t.Page(), t.Generation())
		if err != nil {
			return refusal.For(err, a.TimeoutMs)
		}
		req.Binding = b
		if shot, err = capture.Capture(ctx, t.Page(), req); err != nil {
			return refusal.For(err, a.TimeoutMs)
		}
		ready = readinessNow(ctx, t)
		return nil
	})
	if r != nil {
		return nil, outcome.Refused(r)
	}
	e := s.views.add(t.Handle(), shot.View, shot.MIME, shot.Data)
	f := &surface.BrowserScreenshotFacts{Tab: t.Handle(), View: e.handle, MimeType: shot.MIME, Width: shot.View.ImageWidth, Height: shot.View.ImageHeight, Bytes: len(shot.Data)}
	out := outcome.Done(language.Captured(branch, t.URL(), f.Width, f.Height, f.Bytes, f.MimeType, f.View), ready, surface.EffectNone, true)
	out.Image = &surface.Image{MIME: shot.MIME, Data: shot.Data}
	return f, out
}

// targetClip is the target's box in CSS page px. Locating it scrolls it into
// view when needed, so the capture usually stays inside the viewport (and
// avoids a beyond-viewport render, which the page would see as a resize).
func (s *session) targetClip(ctx context.Context, t *browser.Tab, target string, sel *surface.Selector) (capture.Rect, *surface.Refusal) {
	id, r := s.element(ctx, t, target, sel, locator(sel, "/target", "/selector"))
	if r != nil {
		return capture.Rect{}, r
	}
	w := s.World(t)
	p, err := pagejs.LocateWith(ctx, w, id, pagejs.LocateOptions{AllowDisabled: true, AllowObscured: true})
	if err != nil {
		return capture.Rect{}, refusal.For(err, surface.TimeoutMsDefault)
	}
	m, err := pagejs.Metrics(ctx, w)
	if err != nil {
		return capture.Rect{}, refusal.For(err, surface.TimeoutMsDefault)
	}
	return capture.Rect{X: p.Box.X + m.ScrollX, Y: p.Box.Y + m.ScrollY, Width: p.Box.Width, Height: p.Box.Height}, nil
}
