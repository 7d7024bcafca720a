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
		return nil, refused(&surface.Refusal{Reason: surface.ReasonInternal, Message: "a sequence runs only inside an invocation"})
	}
	c := newCeiling()
	ctx, cancel := c.context(ctx)
	defer cancel()
	for i, st := range a.Steps {
		if b, err := json.Marshal(st.Args); err == nil {
			if r := stepRoles(b, "/steps/"+strconv.Itoa(i)); r != nil {
				return nil, refused(r)
			}
		}
	}
	hint := ""
	for _, st := range a.Steps {
		if hint == "" {
			hint = stepTarget(st.Args)
		}
	}
	t, ref := s.tab(ctx, a.Tab, hint)
	if ref != nil {
		return nil, refused(ref)
	}
	host := language.Host(t.URL())
	f := &surface.BrowserSequenceFacts{Tab: t.Handle(), TotalSteps: len(a.Steps), Steps: []*surface.StepRow{}}
	eff := surface.EffectNone
	safe := true
	var last pipeline.Result
	for i, st := range a.Steps {
		if !c.boundStep(st.Args, a.TimeoutMs, strconv.Itoa(i+1)) {
			ceil := int(callCeiling / time.Millisecond)
			out := surface.Outcome{Status: surface.StatusFailed, Effect: stopped(eff),
				Refusal: &surface.Refusal{Reason: surface.ReasonTimeout, Limit: strconv.Itoa(ceil)}}
			t := language.Say(fmt.Sprintf("The sequence's %d ms ceiling ran out after step %d of %d.", ceil, i, len(a.Steps)),
				"Check the page with browser_read or browser_inspect before continuing.")
			out.Summary, out.NextSteps = t.Summary, t.NextSteps
			return f, out
		}
		st.Args.SetTab(t.Handle())
		inv.Stage(fmt.Sprintf("Step %d of %d: %s", i+1, len(a.Steps), st.Action))
		r := inv.Child(ctx, st.Tool, st.Args)
		env := r.Envelope
		f.Steps = append(f.Steps, &surface.StepRow{Action: st.Action, Status: env.Status, Effect: env.Effect, Summary: env.Summary})
		last = r
		if env.Status != surface.StatusSucceeded {
			return f, stepFailed(i, st, r, eff, len(a.Steps))
		}
		f.CompletedSteps++
		eff = fold(eff, env.Effect)
		safe = safe && env.RepeatSafe
	}
	sum := fmt.Sprintf("Completed all %d steps on %s. Last: %s", len(a.Steps), host, last.Envelope.Summary)
	if len(c.clipped) > 0 {
		sum += fmt.Sprintf(" Step %s had less than its own timeout left of the sequence's %d ms ceiling and was given the rest.",
			strings.Join(c.clipped, ", "), int(callCeiling/time.Millisecond))
	}
	return f, surface.Outcome{Status: surface.StatusSucceeded, Effect: eff, Readiness: last.Envelope.Readiness,
		RepeatSafe: safe, Summary: sum, NextSteps: last.Envelope.NextSteps}
}

// stepFailed is the outcome of a sequence that stopped at step i.
func stepFailed(i int, st *surface.SequenceStep, r pipeline.Result, before surface.Effect, total int) surface.Outcome {
	env := r.Envelope
	var child struct {
		DialogType string `json:"dialog_type"`
	}
	_ = json.Unmarshal(env.Facts, &child)
	eff := fold(before, env.Effect)
	if before != surface.EffectNone && env.Effect == surface.EffectNone {
		eff = surface.EffectPartial
	}
	sum := fmt.Sprintf("Step %d of %d (%s) did not succeed, so the sequence stopped after %s: %s",
		i+1, total, st.Action, language.Plural(i, "completed step", "completed steps"), env.Summary)
	return surface.Outcome{Status: env.Status, Effect: eff, Readiness: env.Readiness,
		Refusal: &surface.Refusal{Reason: surface.ReasonStepFailed, DialogType: surface.DialogType(child.DialogType)},
		Summary: sum, NextSteps: env.NextSteps}
}

// fold combines the effects of steps run one after another.
func fold(acc, e surface.Effect) surface.Effect {
	switch {
	case acc == surface.EffectUnknown || e == surface.EffectUnknown:
		return surface.EffectUnknown
	case acc == surface.EffectPartial || e == surface.EffectPartial:
		return surface.EffectPartial
	case acc == surface.EffectApplied || e == surface.EffectApplied:
		return surface.EffectApplied
	}
	return surface.EffectNone
}

// stopped is the effect of a run cut short after effects accumulated.
func stopped(acc surface.Effect) surface.Effect {
	if acc == surface.EffectApplied {
		return surface.EffectPartial
	}
	return acc
}

// stepTarget is a step's target handle, which names the tab when the
// sequence does not.
func stepTarget(a surface.Args) string {
	switch v := a.(type) {
	case *surface.BrowserClickArgs:
		return v.Target
	case *surface.BrowserFillFormArgs:
		for _, fl := range v.Fields {
			if fl.Target != "" {
				return fl.Target
			}
		}
	case *surface.BrowserTypeTextArgs:
		return v.Target
	case *surface.BrowserPressKeyArgs:
		return v.Target
	case *surface.BrowserScrollArgs:
		return v.Target
	case *surface.BrowserHoverArgs:
		return v.Target
	case *surface.BrowserWaitArgs:
		return v.Target
	}
	return ""
}

// boundStep sets a sequence step's timeout_ms: its own when it differs from
// the default (the decoder fills the default in, so a step that states the
// default is read as one that gave none), else the sequence's, clipped to
// what is left of the ceiling. False: too little is left to run it.
func (c *ceiling) boundStep(a surface.Args, compositeMs int, label string) bool {
	p := stepTimeoutField(a)
	left := c.left()
	if left < surface.TimeoutMsMin {
		return false
	}
	if p == nil {
		return true
	}
	own := *p
	if own == 0 || own == surface.TimeoutMsDefault {
		own = timeoutOr(compositeMs)
	}
	if left < own {
		own = left
		c.clipped = append(c.clipped, label)
	}
	*p = own
	return true
}

// stepTimeoutField is a sequence step's timeout_ms field.
func stepTimeoutField(a surface.Args) *int {
	switch v := a.(type) {
	case *surface.BrowserClickArgs:
		return &v.TimeoutMs
	case *surface.BrowserFillFormArgs:
		return &v.TimeoutMs
	case *surface.BrowserTypeTextArgs:
		return &v.TimeoutMs
	case *surface.BrowserPressKeyArgs:
		return &v.TimeoutMs
	case *surface.BrowserScrollArgs:
		return &v.TimeoutMs
	case *surface.BrowserHoverArgs:
		return &v.TimeoutMs
	case *surface.BrowserWaitArgs:
		return &v.TimeoutMs
	}
	return nil
}
