package tools

import (
	"context"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/input"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
)

// BrowserHover moves the mouse over a target, a selector match, or a point
// of a current view. A disabled control can be hovered (its tooltip may say
// why it is disabled).
func (h *Handler) BrowserHover(ctx context.Context, a *surface.BrowserHoverArgs) (*surface.BrowserHoverFacts, surface.Outcome) {
	s := h.session(ctx)
	ctx, cancel := deadline(ctx, a.TimeoutMs)
	defer cancel()
	t, ref := s.tabFor(ctx, a.Tab, a.Target, a.View)
	if ref != nil {
		return nil, refused(ref)
	}
	f := &surface.BrowserHoverFacts{Tab: t.Handle(), Target: a.Target, View: a.View}
	rec := language.Act{Verb: language.HoveredOver}
	ac, ref := s.perform(ctx, t, func(ctx context.Context, ac *act) *surface.Refusal {
		pt, r := ac.point(ctx, a.Branch() == surface.BrowserHoverBranchPoint, a.Target, a.Selector, a.View, a.X, a.Y, pagejs.LocateOptions{AllowDisabled: true}, &rec)
		if r != nil {
			return r
		}
		err := ac.dispatch(ctx, func(ctx context.Context) (input.Effect, error) { return input.Hover(ctx, ac.t.Page(), pt) })
		return inputRefusal(ctx, err, a.TimeoutMs)
	})
	f.Hovered = ac.dispatched()
	f.DialogType = ac.dialogOf()
	return f, ac.outcome("browser_hover", ref, rec, true, a.TimeoutMs, language.WhatPointerMove)
}
