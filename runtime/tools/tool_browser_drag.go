package tools

import (
	"context"
	"fmt"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/input"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
)

// dragSteps is how many mouse moves carry a drag from start to end: enough
// for pages that track movement (sortables, sliders). Tuning.
const dragSteps = surface.DragMovesMax

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
		return nil, refused(ref)
	}
	f := &surface.BrowserDragFacts{Tab: t.Handle()}
	rec := language.Act{Verb: "Dragged"}
	ac, ref := s.perform(ctx, t, func(ctx context.Context, ac *act) *surface.Refusal {
		var from, to input.Point
		if a.Branch() == surface.BrowserDragBranchPoints {
			var r *surface.Refusal
			if from, r = ac.viewPoint(ctx, a.View, *a.StartX, *a.StartY, "/start_x"); r != nil {
				return r
			}
			if to, r = ac.viewPoint(ctx, a.View, *a.EndX, *a.EndY, "/end_x"); r != nil {
				return r
			}
			rec.Object = fmt.Sprintf("from (%d, %d) to (%d, %d) in %s", *a.StartX, *a.StartY, *a.EndX, *a.EndY, a.View)
		} else {
			var r *surface.Refusal
			from, to, r = ac.dragTargets(ctx, a, &rec)
			if r != nil {
				return r
			}
		}
		err := ac.dispatch(ctx, func(ctx context.Context) (input.Effect, error) {
			w, err := ac.t.WatchDrags()
			if err != nil {
				return input.EffectNone, err
			}
			defer w.Stop()
			return input.Drag(ctx, ac.t.Page(), from, to, dragSteps, w)
		})
		return inputRefusal(ctx, err, a.TimeoutMs)
	})
	f.Dragged = ac.dispatched()
	f.Landing, f.OpenedTabs, f.DialogType = ac.landingOf(), ac.openedOf(), ac.dialogOf()
	return f, ac.outcome("browser_drag", ref, rec, false, a.TimeoutMs, "the drag")
}

// dragTargets locates both ends. Bringing the destination into view may
// scroll the source away, so the source is located again after it.
func (ac *act) dragTargets(ctx context.Context, a *surface.BrowserDragArgs, rec *language.Act) (input.Point, input.Point, *surface.Refusal) {
	from, src, _, r := ac.locate(ctx, a.SourceTarget, a.SourceSelector, locator(a.SourceSelector, "/source_target", "/source_selector"), pagejs.LocateOptions{})
	if r != nil {
		return from, from, r
	}
	to, dst, dp, r := ac.locate(ctx, a.DestinationTarget, a.DestinationSelector, locator(a.DestinationSelector, "/destination_target", "/destination_selector"), pagejs.LocateOptions{AllowDisabled: true})
	if r != nil {
		return from, to, r
	}
	if dp.Scrolled {
		var sp pagejs.Point
		if from, _, sp, r = ac.locate(ctx, a.SourceTarget, a.SourceSelector, locator(a.SourceSelector, "/source_target", "/source_selector"), pagejs.LocateOptions{}); r != nil {
			return from, to, r
		}
		if sp.Scrolled {
			return from, to, &surface.Refusal{Reason: surface.ReasonTargetHidden, Pointer: "/destination_target",
				Message: "the source and the destination do not fit in the viewport together"}
		}
	}
	rec.Object = language.Target(src, ac.s.h.names) + " onto " + language.Target(dst, ac.s.h.names)
	return from, to, nil
}
