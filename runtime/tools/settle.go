package tools

// Settling after an action is the executor's (runtime/browser/settle): it
// waits only while the page is changing, never for a fixed time, and
// decides from events it has proven caught up. This file only fills its
// tuning from generated constants and bounds it by the call.

import (
	"context"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/settle"
)

// reserveMin and reserveMax bound the part of a call's time kept for
// observing the landing and authoring the result after settling.
const (
	reserveMin = time.Duration(surface.SettleReserveMinMsMax) * time.Millisecond
	reserveMax = time.Duration(surface.SettleReserveMaxMsMax) * time.Millisecond
)

// settleConfig is the decision's tuning, from spec/.
func settleConfig() settle.Config {
	return settle.Config{
		Quiet:       time.Duration(surface.SettleQuietMsMax) * time.Millisecond,
		Frames:      surface.SettleFramesMax,
		FrameGap:    time.Duration(surface.SettleFrameMsMax) * time.Millisecond,
		DOMPatience: time.Duration(surface.SettleDomMsMax) * time.Millisecond,
		Retry:       time.Duration(surface.SettleRetryMsMax) * time.Millisecond,
		FrameAfter:  true,
	}
}

// settleContext ends a little before ctx does, keeping time to observe the
// landing and author the result.
func settleContext(ctx context.Context) (context.Context, context.CancelFunc) {
	dl, ok := ctx.Deadline()
	if !ok {
		return context.WithCancel(ctx)
	}
	reserve := min(max(time.Until(dl)/10, reserveMin), reserveMax)
	return context.WithDeadline(ctx, dl.Add(-reserve))
}
