package action

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
)

// waitPoll spaces checks of conditions the browser announces no event for
// (text, targets, selectors). Page events (loads, commits) wake a check at
// once. waitBeat is how often a long wait wakes (the pipeline's progress
// beats carry the progress itself).
const (
	waitPoll = time.Duration(limits.PollMsMax) * time.Millisecond
	waitBeat = time.Duration(limits.ProgressAfterMsMax) * time.Millisecond
)

// WaitChecks counts checks that found a condition not yet holding (tests
// prove the poll's pace, and that a wait waited, with it).
var WaitChecks atomic.Int64

// Check is one look at a wait's condition: whether it holds now. An error
// ends the wait.
type Check func(ctx context.Context) (bool, error)

// ErrDocumentGone is a target's check finding the document it belonged to
// gone: it can never be present again.
var ErrDocumentGone = errors.New("the target's document is gone")

// Wait checks the condition until it holds (true), the check fails (its
// error), or ctx ends (false, nil: the bound, a dialog, the tab or browser
// going away; context.Cause says which). The tab's own state changes
// (commits, lifecycle steps, dialogs) wake a check before the next poll.
func Wait(ctx context.Context, t *browser.Tab, check Check) (bool, error) {
	tick := time.NewTicker(waitPoll)
	defer tick.Stop()
	for {
		// Taken before the check, so a change during the check is not missed.
		changed := t.Changed()
		ok, err := check(ctx)
		if err != nil {
			return false, err
		}
		if ok {
			return true, nil
		}
		WaitChecks.Add(1)
		select {
		case <-tick.C:
		case <-changed:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			return false, nil
		}
	}
}

// Sleep waits until end (true) or until ctx ends (false), waking once per
// progress beat counted from start.
func Sleep(ctx context.Context, start, end time.Time) bool {
	next := start.Add(waitBeat)
	for {
		wait := time.Until(end)
		if wait <= 0 {
			return true
		}
		if p := time.Until(next); p < wait {
			wait = p
		}
		select {
		case <-time.After(wait):
			if !time.Now().Before(next) {
				next = next.Add(waitBeat)
			}
		case <-ctx.Done():
			return false
		}
	}
}

// LoadReady holds once the tab's document finished loading.
func LoadReady(t *browser.Tab) Check {
	return func(ctx context.Context) (bool, error) {
		r, err := t.Readiness(ctx)
		return err == nil && r == browser.ReadyComplete, nil
	}
}

// URLContains holds once the tab's URL contains text. The URL is the tab's
// event-fed state: a URL seen is an answer at once; "not yet" holds only
// once the event stream has caught up (a failed catch-up, say while a
// navigation commits, is "not yet" too). shown, when not nil, says whether
// a URL that contains text still does as the model would see it (a session
// where the person typed a secret); it is asked only of such a URL.
func URLContains(t *browser.Tab, text string, shown func(url string) bool) Check {
	holds := func(u string) bool { return strings.Contains(u, text) && (shown == nil || shown(u)) }
	return func(ctx context.Context) (bool, error) {
		if holds(t.URL()) {
			return true, nil
		}
		if t.Sync(ctx) != nil {
			return false, nil
		}
		return holds(t.URL()), nil
	}
}

// TextOnPage holds once the page's text holds text (want) or no longer
// does (!want); world is the tab's world at each check. judge, at each
// check, is that check's pagejs.Judge: nil, or in a session where the
// person typed a secret the judge of the text as the model would see it.
func TextOnPage(world func() *pagejs.World, text string, want bool, judge func() pagejs.Judge) Check {
	return pageCheck(func(ctx context.Context) (bool, error) {
		ok, err := pagejs.TextShown(ctx, world(), text, judge())
		return ok == want, err
	})
}

// Present holds once element id of document generation gen is attached
// (present) or gone (!present). Once the tab left that document the target
// is gone for good: ErrDocumentGone when present was wanted.
func Present(t *browser.Tab, world func() *pagejs.World, id int, gen uint64, present bool) Check {
	look := pageCheck(func(ctx context.Context) (bool, error) {
		ok, err := pagejs.Present(ctx, world(), id)
		return ok == present, err
	})
	return func(ctx context.Context) (bool, error) {
		if gen != t.Generation() {
			if present {
				return false, ErrDocumentGone
			}
			return true, nil
		}
		return look(ctx)
	}
}

// pageCheck is a check of page code: an error that comes from the page
// moving (a navigation under way), or the wait's end, means "not yet".
func pageCheck(fn Check) Check {
	return func(ctx context.Context) (bool, error) {
		ok, err := fn(ctx)
		if err != nil {
			if ctx.Err() != nil || transient(err) {
				return false, nil
			}
			return false, err
		}
		return ok, nil
	}
}

// transient says a page code error comes from the page moving: a
// navigation under way, a world not there yet, an element of a document
// being replaced.
func transient(err error) bool {
	k := pagejs.KindOf(err)
	return k == pagejs.KindNavigated || k == pagejs.KindUnavailable || k == pagejs.KindStale
}
