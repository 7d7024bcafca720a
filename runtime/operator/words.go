package operator

import (
	"strings"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
)

// Next steps in the operator surface's own terms: a model served only the
// operator verbs cannot call the Ghostlight tools a child's words name.
const (
	stepPerceive = "Call operator_perceive for fresh target refs, then act again."
	stepSurfaces = "Call operator_list_surfaces for the surfaces this session can use."
	stepPolicy   = "Ask the user whether Ghostlight's policy should allow it; nothing ran."
	stepDialog   = "A dialog blocks the surface: ask the user to answer it in the browser, then settle and perceive again."
	stepSettle   = "Call operator_settle, then operator_perceive, before acting again."
	stepReload   = "Call operator_navigate on that surface to load it again."
	stepRead     = "Call operator_perceive to read the surface."
)

// governance names the refusals that are a governance decision: they stop
// an input as blocked_by says, and nothing ran.
var governance = map[surface.Reason]bool{
	surface.ReasonCapabilityDenied:  true,
	surface.ReasonHostDenied:        true,
	surface.ReasonConstraintDenied:  true,
	surface.ReasonCredentialHandoff: true,
	surface.ReasonAuditUnavailable:  true,
	surface.ReasonPathDenied:        true,
}

// blockedBy is what the Receipt's blocked_by says of a refusal: the dialog
// or governance refusal that stopped the call ("" for any other failure).
func blockedBy(r *surface.Refusal) string {
	switch {
	case r == nil:
		return ""
	case r.Reason == surface.ReasonDialogBlocking:
		return string(surface.ReasonDialogBlocking)
	case governance[r.Reason]:
		return string(r.Reason)
	}
	return ""
}

// words keeps what a refused child said happened and says what to do next
// in operator terms.
func words(verb string, r pipeline.Result) (string, []string) {
	summary := r.Envelope.Summary
	if r.Refusal == nil {
		return summary, r.Envelope.NextSteps
	}
	return summary, nextFor(r.Refusal, r.Envelope.NextSteps)
}

// nextFor chooses the operator next step of a refusal; a child's own step
// is kept when it names no tool of another surface.
func nextFor(r *surface.Refusal, theirs []string) []string {
	switch r.Reason {
	case surface.ReasonStaleTarget, surface.ReasonTargetNotFound, surface.ReasonTargetAmbiguous,
		surface.ReasonTargetHidden, surface.ReasonTargetDisabled, surface.ReasonTargetObscured:
		return []string{stepPerceive}
	case surface.ReasonCapabilityDenied, surface.ReasonHostDenied, surface.ReasonConstraintDenied, surface.ReasonPathDenied:
		return []string{stepPolicy}
	case surface.ReasonNoTab, surface.ReasonUnknownTab, surface.ReasonAmbiguousTab:
		return []string{stepSurfaces}
	case surface.ReasonDialogBlocking, surface.ReasonBeforeunload:
		return []string{stepDialog}
	case surface.ReasonTimeout:
		return []string{stepSettle}
	case surface.ReasonTabCrashed:
		return []string{stepReload}
	}
	var keep []string
	for _, s := range theirs {
		if !strings.Contains(s, "browser_") && !strings.Contains(s, "policy_explain") {
			keep = append(keep, s)
		}
	}
	if len(keep) == 0 && len(theirs) > 0 {
		keep = []string{stepRead}
	}
	return keep
}
