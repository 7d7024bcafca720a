package operator

import (
	"context"

	"github.com/ghostlight-dev/ghostlight/generated/operator"
	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// OperatorNavigate sends the surface to a URL (browser_navigate on its
// tab). The URL's host was authorized with the verb; a committed navigation
// is the change, and readiness is the new document's when it loaded or the
// call's time ran out.
func (Handler) OperatorNavigate(ctx context.Context, a *operator.OperatorNavigateArgs) (*operator.OperatorNavigateFacts, surface.Outcome) {
	r := child(ctx, "browser_navigate", a.SurfaceID, map[string]any{"url": a.URL})
	f := &operator.OperatorNavigateFacts{Readiness: readiness(r.Envelope.Readiness), Changed: r.Envelope.Effect != surface.EffectNone}
	if nf, ok := r.Facts.(*surface.BrowserNavigateFacts); ok && nf.DialogType != "" {
		f.BlockedBy = string(surface.ReasonDialogBlocking)
	}
	if failed(r) {
		if f.BlockedBy == "" {
			f.BlockedBy = blockedBy(r.Refusal)
		}
		return f, refused("operator_navigate", r)
	}
	out := surface.Outcome{Effect: r.Envelope.Effect, Readiness: r.Envelope.Readiness, Summary: r.Envelope.Summary}
	switch {
	case f.BlockedBy != "":
		out.NextSteps = []string{stepDialog}
	case f.Readiness != operator.ReadinessSettled:
		out.NextSteps = []string{"Call operator_settle before acting on the new page."}
	default:
		out.NextSteps = []string{stepRead}
	}
	return f, out
}
