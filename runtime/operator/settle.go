package operator

import (
	"context"

	"github.com/ghostlight-dev/ghostlight/generated/operator"
	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// OperatorSettle waits for the surface's document to finish loading, at
// most wait_ms (browser_wait load_ready). A wait_ms below Ghostlight's
// shortest timeout checks once without waiting (a zero duration). A wait
// that runs out reports the readiness then and is not an error.
func (Handler) OperatorSettle(ctx context.Context, a *operator.OperatorSettleArgs) (*operator.OperatorSettleFacts, surface.Outcome) {
	args := map[string]any{"condition": surface.BrowserWaitConditionLoadReady, "timeout_ms": a.WaitMs}
	if a.WaitMs < surface.TimeoutMsMin {
		args = map[string]any{"condition": surface.BrowserWaitConditionDuration, "value": 0}
	}
	r := child(ctx, "browser_wait", a.SurfaceID, args)
	if failed(r) && r.Refusal.Reason != surface.ReasonTimeout {
		return nil, refused("operator_settle", r)
	}
	f := &operator.OperatorSettleFacts{Readiness: readiness(r.Envelope.Readiness)}
	out := surface.Outcome{RepeatSafe: true, Readiness: r.Envelope.Readiness}
	switch {
	case r.Refusal != nil:
		out.Summary = "The surface was still " + string(f.Readiness) + " when the wait ran out."
		out.NextSteps = []string{"Call operator_settle again, or operator_perceive to read it as it is."}
	case f.Readiness == operator.ReadinessSettled:
		out.Summary = "The surface is settled."
		out.NextSteps = []string{stepRead}
	default:
		out.Summary = "The surface is " + string(f.Readiness) + "."
	}
	return f, out
}
