package tools

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
)

// BrowserFlow runs named steps of other tools through the pipeline's child
// path, resolving flow_ref arguments from earlier steps' envelopes.
func (h *Handler) BrowserFlow(ctx context.Context, a *surface.BrowserFlowArgs) (*surface.BrowserFlowFacts, surface.Outcome) {
	inv := pipeline.FromContext(ctx)
	ctx, cancel := deadline(ctx, a.TimeoutMs)
	defer cancel()
	f := &surface.BrowserFlowFacts{Tab: a.Tab, Total: len(a.Steps), DryRun: a.DryRun}
	envs := map[string]json.RawMessage{}
	kept := 0
	applied, failed, unknown := 0, 0, 0
	allRepeatSafe := true
	for i, st := range a.Steps {
		row := &surface.FlowRow{ID: st.ID, Tool: st.Tool}
		f.Steps = append(f.Steps, row)
		args, hadRefs, unresolved := resolveRefs(st.Arguments, envs)
		if unresolved != "" && !a.DryRun {
			r := h.stepRefusal(inv, st.Tool, &surface.Refusal{Reason: surface.ReasonFlowRefUnresolved, Message: "reference " + unresolved + " does not resolve"})
			h.record(f, row, r, &kept, envs)
			failed++
			allRepeatSafe = false
			if a.OnError == surface.BrowserFlowOnErrorStop {
				f.Stopped = i < len(a.Steps)-1
				break
			}
			continue
		}
		if a.DryRun && hadRefs {
			row.Status, row.Effect = surface.StatusUnknown, surface.EffectNone
			continue
		}
		decoded, derr := pipeline.DecodeChild(st.Tool, args)
		if derr == nil && a.Tab != "" {
			decoded.SetTab(a.Tab)
		}
		var r pipeline.Result
		switch {
		case derr != nil:
			r = h.stepRefusal(inv, st.Tool, derr.Refusal())
		case a.DryRun:
			r = h.stepRefusal(inv, st.Tool, inv.Authority.Admit(decoded.Needs()))
		default:
			r = inv.Child(ctx, st.Tool, decoded)
		}
		h.record(f, row, r, &kept, envs)
		switch r.Envelope.Status {
		case surface.StatusSucceeded:
			f.Completed++
		case surface.StatusUnknown:
			unknown++
		default:
			failed++
		}
		if r.Envelope.Effect == surface.EffectApplied || r.Envelope.Effect == surface.EffectPartial {
			applied++
		}
		allRepeatSafe = allRepeatSafe && r.Envelope.RepeatSafe
		if r.Envelope.Status != surface.StatusSucceeded && a.OnError == surface.BrowserFlowOnErrorStop {
			f.Stopped = i < len(a.Steps)-1
			break
		}
	}
	out := surface.Outcome{Status: surface.StatusSucceeded, Effect: surface.EffectNone, Readiness: surface.ReadinessNotApplicable, RepeatSafe: allRepeatSafe && failed == 0 && unknown == 0}
	switch {
	case unknown > 0:
		out.Status, out.Effect = surface.StatusUnknown, surface.EffectUnknown
	case failed > 0:
		out.Status = surface.StatusFailed
		if applied > 0 {
			out.Effect = surface.EffectPartial
		}
	case applied > 0:
		out.Effect = surface.EffectApplied
	}
	t := flowText(f, a.DryRun)
	out.Summary, out.NextSteps = t.Summary, t.NextSteps
	return f, out
}

// stepRefusal authors a step's refusal envelope without dispatching it
// (nil: the step was admitted).
func (h *Handler) stepRefusal(inv *pipeline.Invocation, tool string, r *surface.Refusal) pipeline.Result {
	if r == nil {
		return pipeline.Result{Envelope: surface.Envelope{Status: surface.StatusSucceeded, Effect: surface.EffectNone}}
	}
	return inv.Refuse(tool, r)
}

// record keeps a step's row and, while the capture budget lasts, its envelope.
func (h *Handler) record(f *surface.BrowserFlowFacts, row *surface.FlowRow, r pipeline.Result, kept *int, envs map[string]json.RawMessage) {
	row.Status, row.Effect = r.Envelope.Status, r.Envelope.Effect
	if r.JSON != nil {
		envs[row.ID] = r.JSON
		if *kept+len(r.JSON) <= surface.FlowCaptureBytesMax {
			row.Envelope = r.JSON
			*kept += len(r.JSON)
		}
	}
}

func flowText(f *surface.BrowserFlowFacts, dry bool) language.Text {
	if dry {
		return language.Say(fmt.Sprintf("Checked %s without running them.", language.Plural(f.Total, "step", "steps")))
	}
	s := fmt.Sprintf("Completed %d of %s.", f.Completed, language.Plural(f.Total, "step", "steps"))
	if f.Stopped {
		s += " The flow stopped at the first step that did not succeed."
	}
	if f.Completed < f.Total {
		return language.Say(s, "Read the failing step's envelope in facts.steps before acting again.")
	}
	return language.Say(s)
}
