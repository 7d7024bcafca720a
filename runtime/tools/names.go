package tools

import (
	"context"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
)

// namesOn reports whether the call under ctx may name the elements it
// touches in receipts and refusals: privacy.preserve_target_names of the
// call's own authority snapshot (so a reload applies from the next call),
// and never when the handler was built to withhold names. Perception a
// model asks for (inspect, find, read) names what it sees either way.
func (h *Handler) namesOn(ctx context.Context) bool {
	if !h.names {
		return false
	}
	if inv := pipeline.FromContext(ctx); inv != nil && inv.Authority != nil {
		return inv.Authority.PreserveTargetNames()
	}
	return true
}

// names is namesOn for this action's call.
func (a *act) names() bool { return a.s.h.namesOn(a.call) }

// unnamed drops the element name a refusal about a target carries (the
// element that covers the target) when the call withholds names.
func (a *act) unnamed(r *surface.Refusal) *surface.Refusal {
	if r == nil || r.Reason != surface.ReasonTargetObscured || a.names() {
		return r
	}
	r.Message = language.WithoutName(r.Message)
	return r
}
