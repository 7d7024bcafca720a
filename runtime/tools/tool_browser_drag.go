package tools

import (
	"context"
	"errors"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/action"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/input"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
	"github.com/ghostlight-dev/ghostlight/runtime/refusal"
	"github.com/ghostlight-dev/ghostlight/runtime/tools/act"
	"github.com/ghostlight-dev/ghostlight/runtime/tools/outcome"
)

// BrowserDrag drags one target onto another, or between two points of a
// current view. HTML5 drag and drop fires its real dragstart, dragover and
// drop events (input.Drag intercepts the browser's drag).
func (h *Handler) BrowserDrag(ctx context.Context, a *surface.BrowserDragArgs) (*surface.BrowserDragFacts, surface.Outcome) {
	s := h.session(ctx)
	ctx, cancel := deadline(ctx, a.TimeoutMs)
	defer cancel()
	// An end given by selector names no tab; the other end's handle may.
	handleEnd := a.SourceTarget
	if handleEnd == "" {
		handleEnd = a.DestinationTarget
	}
	t, ref := s.tabFor(ctx, a.Tab, handleEnd, a.View)
	if ref != nil {
		return nil, outcome.Refused(ref)
	}
	f := &surface.BrowserDragFacts{Tab: t.Handle()}
	rec := language.Act{Verb: language.Dragged}
	var dr *action.DragResult
	ac, ref := act.Perform(ctx, s, t, func(ctx context.Context, ac *act.Act) *surface.Refusal {
		var from, to input.Point
		src := 0 // the dragged element's id, when the drag names one
		if a.Branch() == surface.BrowserDragBranchPoints {
			var r *surface.Refusal
			if from, r = ac.ViewPoint(ctx, a.View, *a.StartX, *a.StartY, "/start_x"); r != nil {
				return r
			}
			if to, r = ac.ViewPoint(ctx, a.View, *a.EndX, *a.EndY, "/end_x"); r != nil {
				return r
			}
			rec.Object = language.DragPoints(*a.StartX, *a.StartY, *a.EndX, *a.EndY, a.View)
		} else {
			var r *surface.Refusal
			from, to, src, r = s.dragTargets(ctx, ac, a, &rec)
			if r != nil {
				return r
			}
		}
		var err error
		if dr, err = ac.Action().Drag(ctx, ac.KeyGuard(), from, to, src); err != nil {
			return act.InputRefusal(ctx, err, a.TimeoutMs)
		}
		return nil
	})
	if dr != nil { // the receipt says where it released, and what the page did once settled
		rec.Tail = language.DragTail(dr.X, dr.Y, dr.Checked, dr.Moved)
		f.SourceMoved = dr.Moved
	}
	f.Dragged = ac.Dispatched()
	f.Landing, f.OpenedTabs, f.DialogType = ac.Landing(), ac.Opened(), ac.DialogType()
	return f, ac.Outcome("browser_drag", ref, rec, false, a.TimeoutMs, language.WhatDrag)
}

// dragTargets resolves both ends and has the executor locate them (the
// destination resolved once the source is located).
func (s *session) dragTargets(ctx context.Context, ac *act.Act, a *surface.BrowserDragArgs, rec *language.Act) (input.Point, input.Point, int, *surface.Refusal) {
	srcPtr := locator(a.SourceSelector, "/source_target", "/source_selector")
	dstPtr := locator(a.DestinationSelector, "/destination_target", "/destination_selector")
	id, r := ac.Resolve(ctx, a.SourceTarget, a.SourceSelector, srcPtr)
	if r != nil {
		return input.Point{}, input.Point{}, 0, r
	}
	e, err := ac.Action().LocateDragEnds(ctx, id, func(ctx context.Context) (int, bool) {
		var did int
		did, r = ac.Resolve(ctx, a.DestinationTarget, a.DestinationSelector, dstPtr)
		return did, r == nil
	})
	var ee *action.EndError
	switch {
	case errors.Is(err, action.ErrUnresolved):
		return e.From, e.To, 0, r
	case errors.Is(err, action.ErrDragNoFit):
		return e.From, e.To, 0, &surface.Refusal{Reason: surface.ReasonTargetHidden, Pointer: "/destination_target",
			Message: language.MsgDragNoFit}
	case errors.As(err, &ee):
		r := refusal.For(ee.Err, 0)
		if r.Reason == surface.ReasonStaleTarget {
			r.Pointer = srcPtr
			if ee.End == action.EndDestination {
				r.Pointer = dstPtr
			}
		}
		return e.From, e.To, 0, r
	}
	src, dst := ac.Element(e.Source.Role, e.Source.Name), ac.Element(e.Destination.Role, e.Destination.Name)
	rec.Object = language.Onto(language.Target(src, s.h.names), language.Target(dst, s.h.names))
	return e.From, e.To, id, nil
}
