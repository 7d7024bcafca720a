// Package operator implements the Operator class profile's verbs
// (generated/operator) on Ghostlight's one invocation path. A verb is
// decoded, classified, authorized and audited by the pipeline like any
// tool; its handler then runs the Ghostlight tools it rests on as children
// of its invocation (pipeline.Invocation.Child), each classified, admitted,
// audited and executed on its own, and turns their results into the
// profile's contract. This package holds no browser state and reaches the
// executor only through those children.
package operator

import (
	"context"
	"encoding/json"

	"github.com/ghostlight-dev/ghostlight/generated/operator"
	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
)

// Handler implements operator.Handler.
type Handler struct{}

var _ operator.Handler = Handler{}

// Surface is the operator catalog as the pipeline serves it beside
// Ghostlight's own tools.
func Surface() pipeline.Surface {
	return pipeline.Surface{Lookup: operator.Lookup, Handler: Handler{}}
}

// child runs one Ghostlight tool under the verb's invocation: its arguments
// decode with the tool's own decoder (as a composite's step does), the tab
// is the surface, and the pipeline admits, audits and dispatches it, on the
// composite path every sequence and flow step takes (pipeline.Composite).
func child(ctx context.Context, tool, tab string, args any) pipeline.Result {
	inv := pipeline.FromContext(ctx)
	raw, err := json.Marshal(args)
	if err != nil {
		return inv.Refuse(tool, &surface.Refusal{Reason: surface.ReasonInternal, Message: "the step's arguments cannot be encoded"})
	}
	a, derr := pipeline.DecodeChild(tool, raw)
	if derr != nil {
		return inv.Refuse(tool, derr.Refusal())
	}
	return pipeline.Children(inv, tab).Run(ctx, tool, a)
}

// refused is the outcome of a verb that a child's refusal ended: the
// child's status, effect and typed refusal, in operator words.
func refused(tool string, r pipeline.Result) surface.Outcome {
	ref := *r.Refusal
	summary, next := words(tool, r)
	return surface.Outcome{Status: r.Envelope.Status, Effect: r.Envelope.Effect, Readiness: r.Envelope.Readiness,
		RepeatSafe: r.Envelope.RepeatSafe, Summary: summary, NextSteps: next, Refusal: &ref}
}

// failed reports whether a child's result ended the verb.
func failed(r pipeline.Result) bool {
	return r.Refusal != nil && r.Envelope.Status != surface.StatusSucceeded
}

// readiness maps Ghostlight's readiness onto the profile's (spec/: the
// claim's readiness table).
func readiness(r surface.Readiness) operator.Readiness {
	if v, ok := operator.ReadinessFrom[r]; ok {
		return v
	}
	return operator.ReadinessChanging
}
