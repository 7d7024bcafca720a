package action

// The action lifecycle's tuning, from spec/. This is the one file of the
// package that reads generated bound constants.

import (
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/settle"
)

// ObserveBudget bounds what an action still observes after its call's own
// context ended (the landing after a dialog, say). Tuning, not a contract
// bound; handlers that read a tab past their call's end use it too.
var ObserveBudget = time.Duration(limits.ObserveMsMax) * time.Millisecond

// reserveMin and reserveMax bound the part of a call's time kept for
// observing the landing and authoring the result after settling.
const (
	reserveMin = time.Duration(limits.SettleReserveMinMsMax) * time.Millisecond
	reserveMax = time.Duration(limits.SettleReserveMaxMsMax) * time.Millisecond
)

// settleConfig is the settling decision's tuning.
func settleConfig() settle.Config {
	return settle.Config{
		Quiet:       time.Duration(limits.SettleQuietMsMax) * time.Millisecond,
		Frames:      limits.SettleFramesMax,
		FrameGap:    time.Duration(limits.SettleFrameMsMax) * time.Millisecond,
		DOMPatience: time.Duration(limits.SettleDomMsMax) * time.Millisecond,
		Retry:       time.Duration(limits.SettleRetryMsMax) * time.Millisecond,
		FrameAfter:  true,
	}
}
