package tools

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/action"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
)

// waitPoll spaces checks of conditions the browser announces no event for
// (text, targets, selectors). Page events (loads, commits) wake a check at
// once. Tuning, not a contract bound.
const waitPoll = surface.PollMsMax * time.Millisecond

// waitChecks counts checks that found the condition not yet holding (tests
// prove the poll's pace, and that a wait waited, with it).
var waitChecks atomic.Int64

// waitPhrases say what held, for the receipt.
var waitPhrases = map[string]string{
	surface.BrowserWaitBranchLoadReady:       "The page finished loading",
	surface.BrowserWaitBranchURLContains:     "The URL contained the text",
	surface.BrowserWaitBranchTextPresent:     "The text was on the page",
	surface.BrowserWaitBranchTextAbsent:      "The text was not on the page",
	surface.BrowserWaitBranchTargetPresent:   "The target was present",
	surface.BrowserWaitBranchTargetAbsent:    "The target was gone",
	surface.BrowserWaitBranchSelectorPresent: "A control matching the selector was present",
}

// BrowserWait waits for one condition, polling the live page, bounded by
// timeout_ms; waits past surface.ProgressAfterMsMax notify progress.
func (h *Handler) BrowserWait(ctx context.Context, a *surface.BrowserWaitArgs) (*surface.BrowserWaitFacts, surface.Outcome) {
	s := h.session(ctx)
	limit := timeoutOr(a.TimeoutMs)
	if a.Branch() == surface.BrowserWaitBranchDuration && a.Value != nil && a.Value.Int() > limit {
		return nil, refused(&surface.Refusal{Reason: surface.ReasonInvalidArguments, Pointer: "/value", Rule: surface.RuleMaximum, Limit: strconv.Itoa(limit),
			Message: language.DurationPastTimeout(limit)})
	}
	// The clock starts before the deadline is set, so a wait that met its
	// bound never reports less than the bound as elapsed.
	start := time.Now()
	ctx, cancel := deadline(ctx, a.TimeoutMs)
	defer cancel()
	pipeline.FromContext(ctx).Stage(fmt.Sprintf("Waiting for %s, at most %d ms", a.Condition, limit)) // progress a client sees
	t, ref := s.tab(ctx, a.Tab, a.Target)
	if ref != nil {
		return nil, refused(ref)
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
			out := surface.Outcome{Effect: surface.EffectNone, Readiness: readinessOf(readiness), RepeatSafe: true, Refusal: ref}
			t := language.Say(fmt.Sprintf("The %s condition did not hold within %d ms.", a.Condition, limit),
				"Check the page with browser_read or browser_screenshot, then wait again or act.")
			out.Summary, out.NextSteps = t.Summary, t.NextSteps
			return f, out
		}
		return f, refused(ref)
	}
	phrase := waitPhrases[a.Condition]
	if a.Branch() == surface.BrowserWaitBranchDuration {
		return f, done(language.Say(fmt.Sprintf("Waited %d ms on %s.", f.ElapsedMs, language.Host(t.URL()))), readiness, surface.EffectNone, true)
	}
	return f, done(language.Say(fmt.Sprintf("%s after %d ms.", phrase, f.ElapsedMs)), readiness, surface.EffectNone, true)
}

// waitFor checks the condition until it holds or ctx ends (a timeout
// refusal), notifying progress on long waits.
func (s *session) waitFor(ctx context.Context, t *browser.Tab, a *surface.BrowserWaitArgs, start time.Time, limit int) (bool, *surface.Refusal) {
	timeout := &surface.Refusal{Reason: surface.ReasonTimeout, Limit: strconv.Itoa(limit)}
	progressEvery := time.Duration(surface.ProgressAfterMsMax) * time.Millisecond
	nextProgress := start.Add(progressEvery)
	notify := func() {
		// The pipeline's beats carry the progress (its stage, set above);
		// this keeps the loop waking once per beat.
		if !time.Now().Before(nextProgress) {
			nextProgress = nextProgress.Add(progressEvery)
		}
	}
	if a.Branch() == surface.BrowserWaitBranchDuration {
		end := start.Add(time.Duration(a.Value.Int()) * time.Millisecond)
		for {
			wait := time.Until(end)
			if wait <= 0 {
				return true, nil
			}
			if p := time.Until(nextProgress); p < wait {
				wait = p
			}
			select {
			case <-time.After(wait):
				notify()
			case <-ctx.Done():
				return false, timeoutOrCause(ctx, timeout)
			}
		}
	}
	check, r := s.condition(t, a)
	if r != nil {
		return false, r
	}
	tick := time.NewTicker(waitPoll)
	defer tick.Stop()
	for {
		// The tab's own state changes (commits, lifecycle steps, dialogs)
		// wake a check before the next poll. Taken before the check, so a
		// change during the check is not missed.
		changed := t.Changed()
		ok, r := check(ctx)
		if r != nil {
			return false, r
		}
		if ok {
			return true, nil
		}
		waitChecks.Add(1)
		notify()
		select {
		case <-tick.C:
		case <-changed:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			// The bound, a dialog, or the tab or browser going away.
			return false, timeoutOrCause(ctx, timeout)
		}
	}
}

// timeoutOrCause is the timeout refusal, unless a dialog ended the wait
// (onTab reports that).
func timeoutOrCause(ctx context.Context, timeout *surface.Refusal) *surface.Refusal {
	if context.Cause(ctx) == browser.ErrDialogOpened {
		return nil
	}
	return timeout
}

// condition builds the check of a wait. A check error that comes from the
// page moving (a navigation under way) means "not yet", not a refusal.
func (s *session) condition(t *browser.Tab, a *surface.BrowserWaitArgs) (func(ctx context.Context) (bool, *surface.Refusal), *surface.Refusal) {
	text := ""
	if a.Value != nil {
		text = a.Value.String
	}
	transient := func(err error) bool {
		k := pagejs.KindOf(err)
		return k == pagejs.KindNavigated || k == pagejs.KindUnavailable || k == pagejs.KindStale
	}
	pageCheck := func(fn func(ctx context.Context, w *pagejs.World) (bool, error)) func(ctx context.Context) (bool, *surface.Refusal) {
		return func(ctx context.Context) (bool, *surface.Refusal) {
			ok, err := fn(ctx, s.world(t))
			if err != nil {
				if ctx.Err() != nil || transient(err) {
					return false, nil
				}
				return false, refusalFor(err, a.TimeoutMs)
			}
			return ok, nil
		}
	}
	switch a.Branch() {
	case surface.BrowserWaitBranchLoadReady:
		return func(ctx context.Context) (bool, *surface.Refusal) {
			r, err := t.Readiness(ctx)
			return err == nil && r == browser.ReadyComplete, nil
		}, nil
	case surface.BrowserWaitBranchURLContains:
		// The URL is the tab's event-fed state: catch up with the browser's
		// events first, so a move made before the check is seen by it.
		// A URL seen is an answer at once; "not yet" holds only once the
		// stream has caught up (a failed catch-up, say while a navigation
		// commits, is "not yet" too).
		return func(ctx context.Context) (bool, *surface.Refusal) {
			if strings.Contains(t.URL(), text) {
				return true, nil
			}
			if t.Sync(ctx) != nil {
				return false, nil
			}
			return strings.Contains(t.URL(), text), nil
		}, nil
	case surface.BrowserWaitBranchTextPresent, surface.BrowserWaitBranchTextAbsent:
		want := a.Branch() == surface.BrowserWaitBranchTextPresent
		return pageCheck(func(ctx context.Context, w *pagejs.World) (bool, error) {
			ok, err := pagejs.TextPresent(ctx, w, text)
			return ok == want, err
		}), nil
	case surface.BrowserWaitBranchSelectorPresent:
		sel := a.Selector
		return func(ctx context.Context) (bool, *surface.Refusal) {
			_, r := s.element(ctx, t, "", sel, "/selector")
			switch {
			case r == nil || r.Reason == surface.ReasonTargetAmbiguous:
				return true, nil
			case r.Reason == surface.ReasonTargetNotFound || ctx.Err() != nil || r.Reason == surface.ReasonStaleTarget || r.Reason == surface.ReasonBrowserUnavailable:
				return false, nil
			}
			r.Pointer = "/selector"
			return false, r
		}, nil
	}
	// target_present / target_absent
	present := a.Branch() == surface.BrowserWaitBranchTargetPresent
	ref, st := s.targets.lookup(a.Target)
	switch {
	case st == targetUnknown:
		return nil, unknownHandle("/target", "target")
	case st == targetDropped || ref.tab != t.Handle():
		return nil, &surface.Refusal{Reason: surface.ReasonStaleTarget, Pointer: "/target"}
	}
	return func(ctx context.Context) (bool, *surface.Refusal) {
		if ref.gen != t.Generation() {
			// The document it belonged to is gone: it can never be present again.
			if present {
				return false, &surface.Refusal{Reason: surface.ReasonStaleTarget, Pointer: "/target"}
			}
			return true, nil
		}
		ok, err := pagejs.Present(ctx, s.world(t), ref.id)
		if err != nil {
			if ctx.Err() != nil || transient(err) {
				return false, nil
			}
			return false, refusalFor(err, a.TimeoutMs)
		}
		return ok == present, nil
	}, nil
}
