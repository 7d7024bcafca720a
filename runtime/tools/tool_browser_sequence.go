package tools

import (
	"context"
	"encoding/json"
	"strconv"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
	"github.com/ghostlight-dev/ghostlight/runtime/tools/outcome"
)

// BrowserSequence runs 2-8 steps on one tab. Each step goes through the
// pipeline's child path (classified, admitted, dispatched and audited on its
// own, exactly like a direct call); the sequence stops at the first step that
// does not succeed. Its timeout_ms is each step's bound where the step keeps
// the default, and the whole run is bounded by the contract's ceiling, as a
// flow's (tool_browser_flow.go).
func (h *Handler) BrowserSequence(ctx context.Context, a *surface.BrowserSequenceArgs) (*surface.BrowserSequenceFacts, surface.Outcome) {
	s := h.session(ctx)
	inv := pipeline.FromContext(ctx)
	if inv == nil {
		return nil, outcome.Refused(&surface.Refusal{Reason: surface.ReasonInternal, Message: language.MsgSequenceOutsideInvocation})
	}
	c, ctx, cancel := pipeline.NewComposite(ctx, inv, callCeiling, a.TimeoutMs)
	defer cancel()
	for i, st := range a.Steps {
		if b, err := json.Marshal(st.Args); err == nil {
			if r := stepRoles(b, "/steps/"+strconv.Itoa(i)); r != nil {
				return nil, outcome.Refused(r)
			}
		}
	}
	hint := ""
	for _, st := range a.Steps {
		if hint == "" {
			hint = st.Args.TargetHint()
		}
	}
	t, ref := s.tab(ctx, a.Tab, hint)
	if ref != nil {
		return nil, outcome.Refused(ref)
	}
	c.OnTab(t.Handle())
	host := language.Host(t.URL())
	f := &surface.BrowserSequenceFacts{Tab: t.Handle(), TotalSteps: len(a.Steps), Steps: []*surface.StepRow{}}
	var last pipeline.Result
	for i, st := range a.Steps {
		if !c.Bound(strconv.Itoa(i+1), st.Args) {
			c.Stop()
			ceil := c.CeilingMs()
			out := surface.Outcome{Status: surface.StatusFailed, Effect: c.Effect(),
				Refusal: &surface.Refusal{Reason: surface.ReasonTimeout, Limit: strconv.Itoa(ceil)}}
			t := language.SequenceOutOfTime(ceil, i, len(a.Steps))
			out.Summary, out.NextSteps = t.Summary, t.NextSteps
			return f, out
		}
		inv.Stage(language.SequenceStage(i+1, len(a.Steps), st.Action))
		r := c.Run(ctx, st.Tool, st.Args)
		env := r.Envelope
		f.Steps = append(f.Steps, &surface.StepRow{Action: st.Action, Status: env.Status, Effect: env.Effect, Summary: env.Summary})
		last = r
		if env.Status != surface.StatusSucceeded {
			return f, stepFailed(i, st, r, c.Effect(), len(a.Steps))
		}
		f.CompletedSteps++
	}
	sum := language.SequenceDone(len(a.Steps), host, last.Envelope.Summary, c.Clipped, c.CeilingMs())
	return f, surface.Outcome{Status: surface.StatusSucceeded, Effect: c.Effect(), Readiness: last.Envelope.Readiness,
		RepeatSafe: c.RepeatSafe(), Summary: sum, NextSteps: last.Envelope.NextSteps}
}

// stepFailed is the outcome of a sequence that stopped at step i; eff is
// the composite's fold with that step in it.
func stepFailed(i int, st *surface.SequenceStep, r pipeline.Result, eff surface.Effect, total int) surface.Outcome {
	env := r.Envelope
	var child struct {
		DialogType string `json:"dialog_type"`
	}
	_ = json.Unmarshal(env.Facts, &child)
	sum := language.SequenceStopped(i, total, st.Action, env.Summary)
	return surface.Outcome{Status: env.Status, Effect: eff, Readiness: env.Readiness,
		Refusal: &surface.Refusal{Reason: surface.ReasonStepFailed, DialogType: surface.DialogType(child.DialogType)},
		Summary: sum, NextSteps: env.NextSteps}
}
