package act

import (
	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
)

// Names is the session's NamesOn for this action's call.
func (a *Act) Names() bool { return a.s.NamesOn(a.call) }

// unnamed drops the element name a refusal about a target carries (the
// element that covers the target) when the call withholds names.
func (a *Act) unnamed(r *surface.Refusal) *surface.Refusal {
	if r == nil || r.Reason != surface.ReasonTargetObscured || a.Names() {
		return r
	}
	r.Message = language.WithoutName(r.Message)
	return r
}
