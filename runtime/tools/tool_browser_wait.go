package tools

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/action"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
	"github.com/ghostlight-dev/ghostlight/runtime/refusal"
	"github.com/ghostlight-dev/ghostlight/runtime/tools/outcome"
	"github.com/ghostlight-dev/ghostlight/runtime/tools/person"
)

// BrowserWait waits for one condition, polling the live page, bounded by
// timeout_ms; waits past surface.ProgressAfterMsMax notify progress.
func (h *Handler) BrowserWait(ctx context.Context, a *surface.BrowserWaitArgs) (*surface.BrowserWaitFacts, surface.Outcome) {
	s := h.session(ctx)
	limit := outcome.Timeout(a.TimeoutMs)
	if a.Branch() == surface.BrowserWaitBranchDuration && a.Value != nil && a.Value.Int() > limit {
		return nil, outcome.Refused(&surface.Refusal{Reason: surface.ReasonInvalidArguments, Pointer: "/value", Rule: surface.RuleMaximum, Limit: strconv.Itoa(limit),
			Message: language.DurationPastTimeout(limit)})
	}
	// The clock starts before the deadline is set, so a wait that met its
	// bound never reports less than the bound as elapsed.
	start := time.Now()
	ctx, cancel := deadline(ctx, a.TimeoutMs)
	defer cancel()
	pipeline.FromContext(ctx).Stage(language.WaitStage(a.Condition, limit)) // progress a client sees
	t, ref := s.tab(ctx, a.Tab, a.Target)
	if ref != nil {
		return nil, outcome.Refused(ref)
	}
	f := &surface.BrowserWaitFacts{Tab: t.Handle(), Condition: a.Condition}
	ref = s.onTab(ctx, t, func(ctx context.Context) *surface.Refusal {
		ok, r := s.waitFor(ctx, t, a, start, limit)
		f.Satisfied = ok
		return r
	})
	f.ElapsedMs = int(time.Since(start).Milliseconds())
	rctx, rcancel := context.WithTimeout(context.WithoutCancel(ctx), action.ObserveBudget)
	defer rcancel()
	readiness := ""
	if _, open := t.Dialog(); !open {
		readiness, _ = t.Readiness(rctx)
	}
	if ref != nil {
		if ref.Reason == surface.ReasonTimeout {
			ref.Limit = strconv.Itoa(limit)
			out := surface.Outcome{Effect: surface.EffectNone, Readiness: outcome.Readiness(readiness), RepeatSafe: true, Refusal: ref}
			t := language.WaitTimedOut(a.Condition, limit)
			out.Summary, out.NextSteps = t.Summary, t.NextSteps
			return f, out
		}
		return f, outcome.Refused(ref)
	}
	if a.Branch() == surface.BrowserWaitBranchDuration {
		return f, outcome.Done(language.Waited(f.ElapsedMs, t.URL()), readiness, surface.EffectNone, true)
	}
	return f, outcome.Done(language.WaitHeld(a.Condition, f.ElapsedMs), readiness, surface.EffectNone, true)
}

// waitFor asks the executor to check the condition until it holds or ctx
// ends (a timeout refusal; a dialog's end is onTab's to report).
func (s *session) waitFor(ctx context.Context, t *browser.Tab, a *surface.BrowserWaitArgs, start time.Time, limit int) (bool, *surface.Refusal) {
	var ok bool
	var err error
	if a.Branch() == surface.BrowserWaitBranchDuration {
		ok = action.Sleep(ctx, start, start.Add(time.Duration(a.Value.Int())*time.Millisecond))
	} else {
		check, r := s.condition(t, a)
		if r != nil {
			return false, r
		}
		ok, err = action.Wait(ctx, t, check)
	}
	var re refusalError
	switch {
	case errors.As(err, &re):
		return false, re.r
	case errors.Is(err, action.ErrDocumentGone):
		return false, &surface.Refusal{Reason: surface.ReasonStaleTarget, Pointer: "/target"}
	case err != nil:
		return false, refusal.For(err, a.TimeoutMs)
	case ok || context.Cause(ctx) == browser.ErrDialogOpened:
		return ok, nil
	}
	// The bound, or the tab or browser going away.
	return false, &surface.Refusal{Reason: surface.ReasonTimeout, Limit: strconv.Itoa(limit)}
}

// refusalError carries a check's own refusal through the executor's wait.
type refusalError struct{ r *surface.Refusal }

func (e refusalError) Error() string { return string(e.r.Reason) }

// condition builds the executor's check of a wait.
func (s *session) condition(t *browser.Tab, a *surface.BrowserWaitArgs) (action.Check, *surface.Refusal) {
	text := ""
	if a.Value != nil {
		text = a.Value.String
	}
	world := func() *pagejs.World { return s.World(t) }
	switch a.Branch() {
	case surface.BrowserWaitBranchLoadReady:
		return action.LoadReady(t), nil
	case surface.BrowserWaitBranchURLContains:
		return action.URLContains(t, text, person.URLShown(s, text)), nil
	case surface.BrowserWaitBranchTextPresent, surface.BrowserWaitBranchTextAbsent:
		judge := func() pagejs.Judge { return person.Judge(s, text) } // the person may type while it waits
		return action.TextOnPage(world, text, a.Branch() == surface.BrowserWaitBranchTextPresent, judge), nil
	case surface.BrowserWaitBranchSelectorPresent:
		// What a selector's miss means is the targets' refusals': resolved here.
		sel := a.Selector
		return func(ctx context.Context) (bool, error) {
			_, r := s.element(ctx, t, "", sel, "/selector")
			switch {
			case r == nil || r.Reason == surface.ReasonTargetAmbiguous:
				return true, nil
			case r.Reason == surface.ReasonTargetNotFound || ctx.Err() != nil || r.Reason == surface.ReasonStaleTarget || r.Reason == surface.ReasonBrowserUnavailable:
				return false, nil
			}
			r.Pointer = "/selector"
			return false, refusalError{r}
		}, nil
	}
	// target_present / target_absent
	ref, st := s.targets.lookup(a.Target)
	switch {
	case st == targetUnknown:
		return nil, unknownHandle("/target", "target")
	case st == targetDropped || ref.tab != t.Handle():
		return nil, &surface.Refusal{Reason: surface.ReasonStaleTarget, Pointer: "/target"}
	}
	return action.Present(t, world, ref.id, ref.gen, a.Branch() == surface.BrowserWaitBranchTargetPresent), nil
}
