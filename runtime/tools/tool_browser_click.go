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

// BrowserClick clicks a target, a selector match, or a point of a current
// view with raw mouse input, then settles and reports what it caused.
func (h *Handler) BrowserClick(ctx context.Context, a *surface.BrowserClickArgs) (*surface.BrowserClickFacts, surface.Outcome) {
	s := h.session(ctx)
	ctx, cancel := deadline(ctx, a.TimeoutMs)
	defer cancel()
	t, ref := s.tabFor(ctx, a.Tab, a.Target, a.View)
	if ref != nil {
		return nil, outcome.Refused(ref)
	}
	f := &surface.BrowserClickFacts{Tab: t.Handle(), Target: a.Target, View: a.View}
	rec := language.Act{Verb: language.Clicked(a.Button, a.ClickCount)}
	ac, ref := act.Perform(ctx, s, t, func(ctx context.Context, ac *act.Act) *surface.Refusal {
		pt, r := s.point(ctx, ac, a.Branch() == surface.BrowserClickBranchPoint, a.Target, a.Selector, a.View, a.X, a.Y, pagejs.LocateOptions{}, &rec)
		if r != nil {
			return r
		}
		if a.Branch() != surface.BrowserClickBranchPoint { // policy confirm (confirm.go)
			if r := ac.Confirm(ctx, ac.Action().Located().Role, ac.Action().Located().Name, ac.Action().Located().Submit); r != nil {
				return r
			}
		}
		err := ac.Dispatch(ctx, func(ctx context.Context) (input.Effect, error) {
			return input.Click(ctx, ac.Tab().Page(), pt, a.Button, a.ClickCount)
		})
		return act.InputRefusal(ctx, err, a.TimeoutMs)
	})
	f.Activated = ac.Dispatched()
	f.Landing, f.OpenedTabs, f.DialogType = ac.Landing(), ac.Opened(), ac.DialogType()
	return f, ac.Outcome("browser_click", ref, rec, false, a.TimeoutMs, language.WhatClick)
}

// point resolves the location of a pointer action: a view point, or a
// target or selector located (and scrolled into view) on the page. It fills
// the receipt's object.
func (s *session) point(ctx context.Context, ac *act.Act, byView bool, target string, sel *surface.Selector, view string, x, y *int, opt pagejs.LocateOptions, rec *language.Act) (input.Point, *surface.Refusal) {
	if byView {
		pt, r := ac.ViewPoint(ctx, view, *x, *y, "/view")
		if r == nil {
			rec.Object = language.At(*x, *y, view)
		}
		return pt, r
	}
	pointer := "/target"
	if sel != nil {
		pointer = "/selector"
	}
	id, r := ac.Resolve(ctx, target, sel, pointer)
	if r != nil {
		return input.Point{}, r
	}
	if ac.World().Local(id) {
		// Locating is page code on the tab's own session, and the input waits
		// for its reply: the baseline goes out ahead of it (armAhead).
		ac.ArmAhead(ctx)
	}
	pt, e, _, r := ac.LocateID(ctx, id, pointer, opt)
	if r != nil {
		return pt, r
	}
	rec.Object = language.Target(e, s.h.names)
	return pt, nil
}
