package tools

import (
	"context"
	"encoding/json"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/input"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
	"github.com/ghostlight-dev/ghostlight/runtime/tools/act"
	"github.com/ghostlight-dev/ghostlight/runtime/tools/outcome"
	"github.com/ghostlight-dev/ghostlight/runtime/tools/person"
)

// BrowserExecute runs the model's script in the page's main world, bounded
// by timeout_ms even when it never yields, and returns its result as bounded
// JSON text. The script and its result never enter the summary, logs or
// audit; a navigation it causes is reported as a landing.
func (h *Handler) BrowserExecute(ctx context.Context, a *surface.BrowserExecuteArgs) (*surface.BrowserExecuteFacts, surface.Outcome) {
	s := h.session(ctx)
	limit := outcome.Timeout(a.TimeoutMs)
	ctx, cancel := deadline(ctx, a.TimeoutMs)
	defer cancel()
	t, ref := s.tab(ctx, a.Tab, "")
	if ref != nil {
		return nil, outcome.Refused(ref)
	}
	maxChars := a.MaxResultChars
	if maxChars <= 0 {
		maxChars = surface.ResultCharsDefault
	}
	f := &surface.BrowserExecuteFacts{Tab: t.Handle()}
	var res input.ExecResult
	held := false // the script waits inside a dialog it opened
	rec := language.Act{Verb: language.RanScript}
	ac, ref := act.Perform(ctx, s, t, func(ctx context.Context, ac *act.Act) *surface.Refusal {
		// A credential the person typed into this document stays theirs.
		if r := person.Held(s, ac.Tab()); r != nil {
			return r
		}
		// From now on the person's keys reach no credential field of this
		// site until the person clears it (runtime/browser/scripted.go).
		ac.Tab().NoteModelScript()
		ac.ArmAhead(ctx) // the script is a Runtime command of the page's session
		// The script's own timeout fires first, leaving the call time to stop
		// it and answer.
		scriptTimeout := time.Duration(limit) * time.Millisecond * 9 / 10
		var err error
		// The catch-up probe goes right behind the script; it counts when the
		// script finished in the task its evaluation started.
		mark := ac.Action().Behind(ctx)
		res, err = input.ExecuteKept(ctx, ac.Tab().Page(), s.runner(ac.Tab()), ac.Tab().Generation(), a.Script, scriptTimeout, maxChars, mark)
		switch {
		case err == nil:
			if res.Synchronous {
				ac.Action().KeepBehind()
			}
			ac.Note(surface.EffectApplied)
			return nil
		case input.KindOf(err) == input.KindNavigated:
			// The document went away while the script's promise was pending:
			// what ran stands, and the landing tells where the tab went.
			ac.Note(surface.EffectApplied)
			return nil
		case act.InputRefusal(ctx, err, a.TimeoutMs) == nil:
			ac.Note(surface.EffectApplied) // a dialog the script opened
			held = true
			return nil
		}
		ac.Note(surface.EffectUnknown)
		return act.InputRefusal(ctx, err, a.TimeoutMs)
	})
	f.Value, f.Truncated = res.Value, res.Truncated
	f.Landing, f.OpenedTabs, f.DialogType = ac.Landing(), ac.Opened(), ac.DialogType()
	if res.Thrown {
		f.Threw = true
		b, _ := json.Marshal(res.Message)
		f.Value = string(b)
	}
	out := ac.Outcome("browser_execute", ref, rec, false, a.TimeoutMs, language.WhatScript)
	if held && ac.DialogType() != "" && out.Status == surface.StatusSucceeded {
		// Unlike an input the page answered with a dialog, the script
		// itself waits inside the dialog it opened: what ran stands, but
		// the call has no result, so it is blocked until the dialog is
		// answered.
		rec := ac.Receipt(language.Act{Verb: language.RanScript, Tail: language.ScriptHeld})
		out = surface.Outcome{Status: surface.StatusBlocked, Effect: surface.EffectApplied, Readiness: out.Readiness,
			Refusal: &surface.Refusal{Reason: surface.ReasonDialogBlocking, DialogType: ac.DialogType()},
			Summary: language.Action(rec), NextSteps: language.ActionSteps(rec)}
	}
	switch {
	case out.Refusal != nil:
	case res.Thrown:
		rec := ac.Receipt(language.Act{Verb: language.RanScript, Tail: language.ScriptThrew})
		out = surface.Outcome{Status: surface.StatusFailed, Effect: surface.EffectUnknown, Readiness: out.Readiness,
			Refusal: &surface.Refusal{Reason: surface.ReasonScriptError},
			Summary: language.Action(rec), NextSteps: []string{language.ScriptThrewNext}}
	default:
		out.Summary += " " + language.ScriptResult(f.Truncated)
	}
	return f, out
}
