package pagejs

import (
	"context"
	"errors"
	"time"
)

// An action names its control by selector before the control may exist: a
// menu item the last click is still opening, an option a search is still
// filtering in. Like the other actionability conditions (attached is the
// first of them), a selector that matches nothing is looked up again each
// animation frame until the action's deadline; only then is it refused.
// A selector matching several controls, or any other failure, is answered
// at once: waiting would not make it the model's one control.

// selectorRetry decides, from one lookup's error and the clock, whether to
// look again after the next frame.
func selectorRetry(err error, now, deadline time.Time) bool {
	var pe *Error
	return errors.As(err, &pe) && pe.Kind == KindNoMatch && now.Before(deadline)
}

// AwaitSelector resolves sel like ResolveSelector, looking again each
// animation frame while it matches nothing, until deadline. The refusal at
// the deadline is KindNoMatch with the time waited. A loaded page can make
// one look or one frame outlast the call's own reserve past deadline: once
// a look has matched nothing, the call's end while looking again still
// answers KindNoMatch (what the looks saw), not a timeout.
func AwaitSelector(ctx context.Context, w *World, sel Selector, deadline time.Time) (int, error) {
	start := time.Now()
	var miss *Error
	missed := func() (int, error) {
		miss.Waited = time.Since(start)
		return 0, miss
	}
	for {
		id, err := ResolveSelector(ctx, w, sel)
		if err != nil && miss != nil && ctx.Err() != nil {
			return missed()
		}
		if err == nil || !selectorRetry(err, time.Now(), deadline) {
			var pe *Error
			if errors.As(err, &pe) && pe.Kind == KindNoMatch {
				pe.Waited = time.Since(start)
			}
			return id, err
		}
		errors.As(err, &miss)
		fctx, cancel := context.WithDeadline(ctx, deadline)
		err = w.AwaitFrame(fctx)
		cancel()
		if err != nil {
			if ctx.Err() != nil || !time.Now().Before(deadline) {
				return missed()
			}
			return 0, err
		}
	}
}
