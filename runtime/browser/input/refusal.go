package input

import (
	"strconv"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// kindRefusal is what one Kind means to the model. byCause: the Kind says only
// that a call failed; its cause (a passed deadline, an opened dialog, anything
// else) decides, so Refusal is nil and the caller reads the cause.
type kindRefusal struct {
	reason  surface.Reason
	message string
	byCause bool
}

// kindRefusals maps every Kind to its refusal (TestEveryKindRefuses keeps it whole).
var kindRefusals = map[Kind]kindRefusal{
	KindInvalidArgument: {byCause: true},
	KindCancelled:       {byCause: true},
	KindTimeout:         {reason: surface.ReasonTimeout},
	KindTargetClosed:    {surface.ReasonBrowserUnavailable, "the tab closed", false},
	KindNoDialog:        {reason: surface.ReasonNoDialog},
	KindProtocol:        {byCause: true},
	KindStaging:         {byCause: true},
	KindNavigated:       {surface.ReasonStaleTarget, "the page navigated", false},
}

// Refusal is the closed refusal e means, or nil when its cause decides;
// timeoutMs is the call's deadline, the limit of a timeout.
func (e *Error) Refusal(timeoutMs int) *surface.Refusal {
	rf, ok := kindRefusals[e.Kind]
	if !ok || rf.byCause {
		return nil
	}
	r := &surface.Refusal{Reason: rf.reason, Message: rf.message}
	if e.Kind == KindTimeout {
		r.Limit = strconv.Itoa(timeoutMs)
	}
	return r
}
