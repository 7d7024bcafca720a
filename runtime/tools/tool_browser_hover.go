package tools

import (
	"context"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/input"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
	"github.com/ghostlight-dev/ghostlight/runtime/tools/act"
	"github.com/ghostlight-dev/ghostlight/runtime/tools/outcome"
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
		return nil, outcome.Refused(ref)
	}
	f := &surface.BrowserHoverFacts{Tab: t.Handle(), Target: a.Target, View: a.View}
	rec := language.Act{Verb: language.HoveredOver}
	ac, ref := act.Perform(ctx, s, t, func(ctx context.Context, ac *act.Act) *surface.Refusal {
		pt, r := s.point(ctx, ac, a.Branch() == surface.BrowserHoverBranchPoint, a.Target, a.Selector, a.View, a.X, a.Y, pagejs.LocateOptions{AllowDisabled: true}, &rec)
		if r != nil {
			return r
		}
		err := ac.Dispatch(ctx, func(ctx context.Context) (input.Effect, error) { return input.Hover(ctx, ac.Tab().Page(), pt) })
		return act.InputRefusal(ctx, err, a.TimeoutMs)
	})
	f.Hovered = ac.Dispatched()
	f.DialogType = ac.DialogType()
	return f, ac.Outcome("browser_hover", ref, rec, true, a.TimeoutMs, language.WhatPointerMove)
}
