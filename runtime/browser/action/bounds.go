package action

// The action lifecycle's tuning, from spec/. This is the one file of the
// package that reads generated bound constants.

import (
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/settle"
)

// ObserveBudget bounds what an action still observes after its call's own
// context ended (the landing after a dialog, say). Tuning, not a contract
// bound; handlers that read a tab past their call's end use it too.
var ObserveBudget = time.Duration(surface.ObserveMsMax) * time.Millisecond

// reserveMin and reserveMax bound the part of a call's time kept for
// observing the landing and authoring the result after settling.
const (
	reserveMin = time.Duration(surface.SettleReserveMinMsMax) * time.Millisecond
	reserveMax = time.Duration(surface.SettleReserveMaxMsMax) * time.Millisecond
)

// settleConfig is the settling decision's tuning.
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
