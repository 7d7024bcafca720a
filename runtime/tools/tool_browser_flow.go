package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
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
		return nil, refused(&surface.Refusal{Reason: surface.ReasonInternal, Message: "a flow runs only inside an invocation"})
	}
	c := newCeiling()
	ctx, cancel := c.context(ctx)
	defer cancel()
	for i, st := range a.Steps {
		if r := stepRoles(st.Arguments, "/steps/"+strconv.Itoa(i)+"/arguments"); r != nil {
			return nil, refused(r)
		}
	}
	f := &surface.BrowserFlowFacts{Tab: a.Tab, Total: len(a.Steps), DryRun: a.DryRun}
	envs := map[string]json.RawMessage{}
	ids := map[string]bool{}
	capt := &stepCapture{}
	var deferred []string
	applied, failed, unknown := 0, 0, 0
	allRepeatSafe := true
	for i, st := range a.Steps {
		inv.Stage(fmt.Sprintf("Step %d of %d (%s): %s", i+1, len(a.Steps), st.ID, st.Tool))
		row := &surface.FlowRow{ID: st.ID, Tool: st.Tool}
		f.Steps = append(f.Steps, row)
		var r pipeline.Result
		if a.DryRun {
			var checks []string
			r, checks = h.dryStep(inv, st, a.Tab, ids)
			deferred = append(deferred, checks...)
		} else {
			r = h.runStep(ctx, inv, st, a, envs, c)
		}
		ids[st.ID] = true
		capt.record(row, r, envs)
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
	if len(deferred) > surface.FlowStepsMax {
		deferred = deferred[:surface.FlowStepsMax]
	}
	inv.Carry(func(r *surface.Refusal) {
		r.CaptureStoppedAt, r.CaptureOmittedBytes = capt.stoppedAt, capt.omitted
		r.RunTimeChecks = deferred
	})
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
	t := flowText(f, a.DryRun, capt, deferred, c.clipped)
	out.Summary, out.NextSteps = t.Summary, t.NextSteps
	return f, out
}

// runStep resolves a step's references, gives it its bound and runs it as a
// child of the flow.
func (h *Handler) runStep(ctx context.Context, inv *pipeline.Invocation, st *surface.FlowStep, a *surface.BrowserFlowArgs, envs map[string]json.RawMessage, c *ceiling) pipeline.Result {
	tool := string(st.Tool)
	args, _, unresolved := resolveRefs(st.Arguments, envs)
	if unresolved != "" {
		return inv.Refuse(tool, &surface.Refusal{Reason: surface.ReasonFlowRefUnresolved, Message: "reference " + unresolved + " does not resolve"})
	}
	args, r := c.bound(st.ID, tool, args, a.TimeoutMs)
	if r != nil {
		return inv.Refuse(tool, r)
	}
	decoded, derr := pipeline.DecodeChild(tool, args)
	if derr != nil {
		return inv.Refuse(tool, derr.Refusal())
	}
	if a.Tab != "" {
		decoded.SetTab(a.Tab)
	}
	return inv.Child(ctx, tool, decoded)
}

// dryStep decodes and classifies a step without dispatching it. A flow_ref
// stands in for a value of its field's type (refs.go), so the step's branch,
// the bounds of its other fields and its capabilities are all checked; what
// the reference will hold is checked at run time, and said so.
func (h *Handler) dryStep(inv *pipeline.Invocation, st *surface.FlowStep, tab string, earlier map[string]bool) (pipeline.Result, []string) {
	tool := string(st.Tool)
	args, refs, bad := standIns(tool, st.Arguments, earlier)
	if bad != "" {
		return inv.Refuse(tool, &surface.Refusal{Reason: surface.ReasonFlowRefUnresolved, Message: "reference " + bad + " does not name an earlier step"}), nil
	}
	decoded, derr := pipeline.DecodeChild(tool, args)
	if derr != nil {
		return inv.Refuse(tool, derr.Refusal()), nil
	}
	if tab != "" {
		decoded.SetTab(tab)
	}
	needs := decoded.Needs()
	needs.URLs = withoutStandIns(needs.URLs)
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

// ceilingGrace keeps the call's own context open a little past the ceiling,
// so a step given the time left meets its own deadline, and says so, before
// the flow's context ends under it.
const ceilingGrace = time.Duration(surface.FlowCeilingGraceMsMax) * time.Millisecond

// ceiling tracks the whole call's time against callCeiling.
type ceiling struct {
	end     time.Time
	clipped []string // steps given less than their own bound
}

func newCeiling() *ceiling { return &ceiling{end: time.Now().Add(callCeiling)} }

func (c *ceiling) context(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithDeadline(ctx, c.end.Add(ceilingGrace))
}

// left is the whole number of milliseconds of the ceiling still left.
func (c *ceiling) left() int { return int(time.Until(c.end) / time.Millisecond) }

// bound sets a step's timeout_ms: its own, else the composite's (0: the
// default), clipped to what is left of the ceiling. A step with less than
// the least timeout left is refused, naming the ceiling.
func (c *ceiling) bound(id, tool string, args json.RawMessage, compositeMs int) (json.RawMessage, *surface.Refusal) {
	if !takesTimeout(tool) {
		return args, nil
	}
	own, given := stepTimeout(args)
	if !given {
		own = timeoutOr(compositeMs)
	}
	left := c.left()
	if left < surface.TimeoutMsMin {
		return nil, &surface.Refusal{Reason: surface.ReasonTimeout, Limit: strconv.Itoa(int(callCeiling / time.Millisecond)),
			Message: fmt.Sprintf("the flow's %d ms ceiling ran out before this step began", int(callCeiling/time.Millisecond))}
	}
	if left < own {
		own = left
		c.clipped = append(c.clipped, id)
	} else if given {
		return args, nil
	}
	return withTimeout(args, own), nil
}

// stepTimeout reads a step's own timeout_ms when it gives a number.
func stepTimeout(args json.RawMessage) (int, bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(args, &m) != nil {
		return 0, false
	}
	raw, ok := m["timeout_ms"]
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(string(raw))
	if err != nil {
		return 0, false // the decoder refuses it
	}
	return n, true
}

// withTimeout sets timeout_ms in a step's argument object.
func withTimeout(args json.RawMessage, ms int) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(args, &m) != nil || m == nil {
		return args // not an object: the decoder says so
	}
	m["timeout_ms"] = json.RawMessage(strconv.Itoa(ms))
	b, err := json.Marshal(m)
	if err != nil {
		return args
	}
	return b
}

// takesTimeout reports whether a tool's input schema has timeout_ms.
func takesTimeout(tool string) bool {
	e := surface.Lookup(tool)
	if e == nil {
		return false
	}
	var def struct {
		InputSchema struct {
			Properties map[string]json.RawMessage `json:"properties"`
		} `json:"inputSchema"`
	}
	if json.Unmarshal(e.Definition, &def) != nil {
		return false
	}
	_, ok := def.InputSchema.Properties["timeout_ms"]
	return ok
}

func flowText(f *surface.BrowserFlowFacts, dry bool, capt *stepCapture, deferred []string, clipped []string) language.Text {
	if dry {
		s := fmt.Sprintf("Checked %s without running them.", language.Plural(f.Total, "step", "steps"))
		if len(deferred) > 0 {
			s += fmt.Sprintf(" What %s will hold is checked only at run time (run_time_checks).",
				language.Plural(len(deferred), "reference", "references"))
		}
		return language.Say(s)
	}
	s := fmt.Sprintf("Completed %d of %s.", f.Completed, language.Plural(f.Total, "step", "steps"))
	if f.Stopped {
		s += " The flow stopped at the first step that did not succeed."
	}
	if len(clipped) > 0 {
		s += fmt.Sprintf(" Step %s had less than its own timeout left of the flow's %d ms ceiling and was given the rest.",
			strings.Join(clipped, ", "), int(callCeiling/time.Millisecond))
	}
	if capt.stoppedAt != "" {
		s += fmt.Sprintf(" Step envelopes from %s on (%d bytes) were not recorded: the capture budget is %d bytes.",
			capt.stoppedAt, capt.omitted, surface.FlowCaptureBytesMax)
	}
	if f.Completed < f.Total {
		return language.Say(s, "Read the failing step's envelope in facts.steps before acting again.")
	}
	return language.Say(s)
}
