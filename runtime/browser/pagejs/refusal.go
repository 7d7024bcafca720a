package pagejs

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// kindRefusal is what one Kind means to the model: its closed reason, whether
// the message is the error's Detail, and whether it ends with the wait
// (StillWaiting).
type kindRefusal struct {
	reason   surface.Reason
	noDetail bool // the language layer words the whole message
	waits    bool // the message says how long the action waited
}

// kindRefusals maps every Kind to its refusal (TestEveryKindRefuses keeps it whole).
var kindRefusals = map[Kind]kindRefusal{
	KindInternal:     {reason: surface.ReasonInternal},
	KindUnavailable:  {reason: surface.ReasonBrowserUnavailable},
	KindBadRequest:   {reason: surface.ReasonInternal},
	KindStale:        {reason: surface.ReasonStaleTarget},
	KindHidden:       {reason: surface.ReasonTargetHidden},
	KindObscured:     {reason: surface.ReasonTargetObscured, noDetail: true, waits: true}, // names the cover (Covering)
	KindDisabled:     {reason: surface.ReasonTargetDisabled},
	KindReadOnly:     {reason: surface.ReasonNotEditable},
	KindNotEditable:  {reason: surface.ReasonNotEditable},
	KindMismatch:     {reason: surface.ReasonValueMismatch},
	KindCredential:   {reason: surface.ReasonCredentialHandoff},
	KindNoMatch:      {reason: surface.ReasonTargetNotFound, noDetail: true, waits: true}, // a selector looked for until the deadline
	KindAmbiguous:    {reason: surface.ReasonTargetAmbiguous},
	KindRejected:     {reason: surface.ReasonInternal},
	KindNotFocusable: {reason: surface.ReasonNotEditable},
	KindNavigated:    {reason: surface.ReasonStaleTarget},
	KindUnstable:     {reason: surface.ReasonTimeout, waits: true},
}

// Refusal is the closed refusal e means; timeoutMs is the call's deadline, the
// limit of a page that could not be reached before it. The message is the
// error's Detail unless the language layer words it from Covering and
// StillWaiting (page strings are quoted only there).
func (e *Error) Refusal(timeoutMs int) *surface.Refusal {
	if e.Kind == KindUnavailable && errors.Is(e, context.DeadlineExceeded) {
		return &surface.Refusal{Reason: surface.ReasonTimeout, Limit: strconv.Itoa(timeoutMs)}
	}
	rf, ok := kindRefusals[e.Kind]
	if !ok {
		rf = kindRefusals[KindInternal]
	}
	r := &surface.Refusal{Reason: rf.reason, Message: e.Detail}
	if rf.noDetail {
		r.Message = ""
	}
	if e.Kind == KindAmbiguous {
		r.Candidates = e.Count
	}
	return r
}

// Covering is the role and name (a page string) of the element that covered
// a KindObscured target; ok is false for every other Kind.
func (e *Error) Covering() (role, name string, ok bool) {
	return e.Role, e.Name, e.Kind == KindObscured
}

// StillWaiting is how long the action waited before a refusal whose message
// says so; ok is false when the message does not.
func (e *Error) StillWaiting() (time.Duration, bool) {
	rf, ok := kindRefusals[e.Kind]
	return e.Waited, ok && rf.waits
}
