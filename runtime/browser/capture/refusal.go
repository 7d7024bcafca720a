package capture

import (
	"strconv"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// kindRefusal is what one Kind means to the model. byCause: the Kind says only
// that the capture failed; its cause (a passed deadline, an opened dialog,
// anything else) decides, so Refusal is nil and the caller reads the cause.
type kindRefusal struct {
	reason  surface.Reason
	byCause bool
}

// kindRefusals maps every Kind to its refusal (TestEveryKindRefuses keeps it whole).
var kindRefusals = map[Kind]kindRefusal{
	KindInvalid:       {byCause: true},
	KindRegionEmpty:   {reason: surface.ReasonRegionOutside},
	KindRegionOutside: {reason: surface.ReasonRegionOutside},
	KindClipEmpty:     {reason: surface.ReasonTargetHidden},
	KindStale:         {reason: surface.ReasonStaleView},
	KindMoved:         {byCause: true},
	KindTooLarge:      {byCause: true},
	KindProtocol:      {byCause: true},
	KindDecode:        {byCause: true},
	KindTooLong:       {reason: surface.ReasonNotSupported}, // worded from FullPageAspect
}

// Refusal is the closed refusal e means, or nil when its cause decides. A
// region's message is the error's own account of the edge it broke.
func (e *Error) Refusal(int) *surface.Refusal {
	rf, ok := kindRefusals[e.Kind]
	if !ok || rf.byCause {
		return nil
	}
	r := &surface.Refusal{Reason: rf.reason}
	switch e.Kind {
	case KindRegionEmpty, KindRegionOutside:
		r.Message = e.Error()
	case KindTooLong:
		r.Limit = strconv.FormatFloat(e.Limit, 'f', -1, 64)
	}
	return r
}

// FullPageAspect is how many times as long as it is wide a KindTooLong page
// is, and the bound it passed; ok is false for every other Kind.
func (e *Error) FullPageAspect() (got, limit float64, ok bool) {
	return e.Got, e.Limit, e.Kind == KindTooLong
}
