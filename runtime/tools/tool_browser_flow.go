package tools

import (
	"context"
	"encoding/json"
	"strconv"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/flowref"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
	"github.com/ghostlight-dev/ghostlight/runtime/tools/outcome"
)

// BrowserFlow runs named steps of other tools through the pipeline's child
// path, resolving flow_ref arguments from earlier steps' envelopes.
//
// Timeouts (docs/decisions/composite-timeouts.md): the flow's timeout_ms is each step's bound
// when the step gives none of its own; the whole flow is bounded by the
// contract's ceiling (callCeiling). A step that starts with less of the
// ceiling left than its own bound is given what is left, and the summary
// says so; one that starts with less than the least timeout is not run.
func (h *Handler) BrowserFlow(ctx context.Context, a *surface.BrowserFlowArgs) (*surface.BrowserFlowFacts, surface.Outcome) {
	inv := pipeline.FromContext(ctx)
	if inv == nil {
		return nil, outcome.Refused(&surface.Refusal{Reason: surface.ReasonInternal, Message: language.MsgFlowOutsideInvocation})
	}
	c, ctx, cancel := pipeline.NewComposite(ctx, inv, callCeiling, a.TimeoutMs)
	defer cancel()
	c.OnTab(a.Tab)
	for i, st := range a.Steps {
		if r := stepRoles(st.Arguments, "/steps/"+strconv.Itoa(i)+"/arguments"); r != nil {
			return nil, outcome.Refused(r)
		}
	}
	f := &surface.BrowserFlowFacts{Tab: a.Tab, Total: len(a.Steps), DryRun: a.DryRun}
	envs := map[string]json.RawMessage{}
	ids := map[string]bool{}
	capt := &stepCapture{}
	var deferred []string
	for i, st := range a.Steps {
		inv.Stage(language.FlowStage(i+1, len(a.Steps), st.ID, st.Tool))
		row := &surface.FlowRow{ID: st.ID, Tool: st.Tool}
		f.Steps = append(f.Steps, row)
		var r pipeline.Result
		if a.DryRun {
			var checks []string
			r, checks = h.dryStep(inv, st, a.Tab, ids)
			deferred = append(deferred, checks...)
			c.Fold(r.Envelope)
		} else {
			r = runStep(ctx, c, st, envs)
		}
		ids[st.ID] = true
		capt.record(row, r, envs)
		if r.Envelope.Status == surface.StatusSucceeded {
			f.Completed++
		}
		if r.Envelope.Status != surface.StatusSucceeded && a.OnError == surface.BrowserFlowOnErrorStop {
			f.Stopped = i < len(a.Steps)-1
			break
		}
	}
	if len(deferred) > surface.FlowStepsMax {
		deferred = deferred[:surface.FlowStepsMax]
	}
	inv.Carry(func(r *surface.Refusal) {
		r.CaptureStoppedAt, r.CaptureOmittedBytes = capt.stoppedAt, capt.omitted
		r.RunTimeChecks = deferred
	})
	out := surface.Outcome{Status: c.Status(), Effect: c.Effect(), Readiness: surface.ReadinessNotApplicable, RepeatSafe: c.RepeatSafe()}
	t := flowText(f, a.DryRun, capt, deferred, c.Clipped, c.CeilingMs())
	out.Summary, out.NextSteps = t.Summary, t.NextSteps
	return f, out
}

// runStep resolves a step's references, decodes it with its tool's own
// decoder, gives it its bound and runs it as a child of the flow.
func runStep(ctx context.Context, c *pipeline.Composite, st *surface.FlowStep, envs map[string]json.RawMessage) pipeline.Result {
	tool := string(st.Tool)
	args, _, unresolved := flowref.Resolve(st.Arguments, envs)
	if unresolved != "" {
		return c.Refuse(tool, &surface.Refusal{Reason: surface.ReasonFlowRefUnresolved, Message: language.RefUnresolved(unresolved)})
	}
	decoded, derr := pipeline.DecodeChild(tool, args)
	if derr != nil {
		return c.Refuse(tool, derr.Refusal())
	}
	if !c.Bound(st.ID, decoded) {
		ceil := c.CeilingMs()
		return c.Refuse(tool, &surface.Refusal{Reason: surface.ReasonTimeout, Limit: strconv.Itoa(ceil),
			Message: language.FlowCeilingRanOut(ceil)})
	}
	return c.Run(ctx, tool, decoded)
}

// dryStep decodes and classifies a step without dispatching it. A flow_ref
// stands in for a value of its field's type (refs.go), so the step's branch,
// the bounds of its other fields and its capabilities are all checked; what
// the reference will hold is checked at run time, and said so.
func (h *Handler) dryStep(inv *pipeline.Invocation, st *surface.FlowStep, tab string, earlier map[string]bool) (pipeline.Result, []string) {
	tool := string(st.Tool)
	args, refs, bad := flowref.StandIns(tool, st.Arguments, earlier)
	if bad != "" {
		return inv.Refuse(tool, &surface.Refusal{Reason: surface.ReasonFlowRefUnresolved, Message: language.RefNotEarlier(bad)}), nil
	}
	decoded, derr := pipeline.DecodeChild(tool, args)
	if derr != nil {
		return inv.Refuse(tool, derr.Refusal()), nil
	}
	if tab != "" {
		decoded.SetTab(tab)
	}
	needs := decoded.Needs()
	needs.URLs = flowref.WithoutStandIns(needs.URLs)
	if r := inv.Authority.Admit(needs); r != nil {
		return inv.Refuse(tool, r), nil
	}
	checks := make([]string, 0, len(refs))
	for _, p := range refs {
		checks = append(checks, st.ID+p)
	}
	return pipeline.Result{Envelope: surface.Envelope{Status: surface.StatusSucceeded, Effect: surface.EffectNone}}, checks
}

// stepCapture keeps step envelopes until the budget (flow_capture_bytes) is
// crossed; from the step that crosses it on, none is recorded, and the
// bytes left out are counted. Every envelope stays available to references.
type stepCapture struct {
	kept      int
	stoppedAt string
	omitted   int
}

func (c *stepCapture) record(row *surface.FlowRow, r pipeline.Result, envs map[string]json.RawMessage) {
	row.Status, row.Effect = r.Envelope.Status, r.Envelope.Effect
	if r.JSON == nil {
		return
	}
	envs[row.ID] = r.JSON
	if c.stoppedAt == "" && c.kept+len(r.JSON) > surface.FlowCaptureBytesMax {
		c.stoppedAt = row.ID
	}
	if c.stoppedAt != "" {
		c.omitted += len(r.JSON)
		return
	}
	row.Envelope = r.JSON
	c.kept += len(r.JSON)
}

// callCeiling bounds a whole composite call: the contract's largest timeout.
var callCeiling = time.Duration(surface.TimeoutMsMax) * time.Millisecond

func flowText(f *surface.BrowserFlowFacts, dry bool, capt *stepCapture, deferred []string, clipped []string, ceilMs int) language.Text {
	if dry {
		return language.FlowChecked(f.Total, len(deferred))
	}
	return language.FlowRan(f.Completed, f.Total, f.Stopped, clipped, ceilMs, capt.stoppedAt, capt.omitted)
}
