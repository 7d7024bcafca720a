package tools

import (
	"context"
	"strconv"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/input"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
	"github.com/ghostlight-dev/ghostlight/runtime/refusal"
	"github.com/ghostlight-dev/ghostlight/runtime/tools/act"
	"github.com/ghostlight-dev/ghostlight/runtime/tools/outcome"
)

// BrowserFillForm sets 1-30 ordinary controls the way frameworks observe
// (pagejs.SetValue), and submits only by clicking submit_target. Every field
// is resolved and classified first: a credential-class field stops the call
// before any value is dispatched.
func (h *Handler) BrowserFillForm(ctx context.Context, a *surface.BrowserFillFormArgs) (*surface.BrowserFillFormFacts, surface.Outcome) {
	s := h.session(ctx)
	ctx, cancel := deadline(ctx, a.TimeoutMs)
	defer cancel()
	hint := a.SubmitTarget
	submit := a.SubmitTarget != "" || a.SubmitSelector != nil
	for _, fl := range a.Fields {
		if hint == "" && fl.Target != "" {
			hint = fl.Target
		}
	}
	t, ref := s.tab(ctx, a.Tab, hint)
	if ref != nil {
		return nil, outcome.Refused(ref)
	}
	f := &surface.BrowserFillFormFacts{Tab: t.Handle()}
	rec := language.Act{}
	ac, ref := act.Perform(ctx, s, t, func(ctx context.Context, ac *act.Act) *surface.Refusal {
		ids := make([]int, len(a.Fields))
		for i, fl := range a.Fields {
			base := "/fields/" + strconv.Itoa(i)
			ptr := base + "/target"
			if fl.Selector != nil {
				ptr = base + "/selector"
			}
			id, r := ac.Resolve(ctx, fl.Target, fl.Selector, ptr)
			if r != nil {
				return r
			}
			it, err := pagejs.Describe(ctx, ac.World(), id)
			if err != nil {
				r := refusal.For(err, a.TimeoutMs)
				r.Pointer = ptr
				return r
			}
			if it.Credential {
				return s.credential(ac, it, base)
			}
			ids[i] = id
		}
		if submit { // policy confirm: a waiting submit fills nothing either (act/confirm.go)
			ptr := locator(a.SubmitSelector, "/submit_target", "/submit_selector")
			id, r := ac.Resolve(ctx, a.SubmitTarget, a.SubmitSelector, ptr)
			if r != nil {
				return r
			}
			if it, err := pagejs.Describe(ctx, ac.World(), id); err == nil {
				if r := ac.Confirm(ctx, it.Role, it.Name, it.Submit); r != nil {
					return r
				}
			}
		}
		if r := ac.Ready(ctx, ids, func(i int) string {
			return locator(a.Fields[i].Selector, "/fields/"+strconv.Itoa(i)+"/target", "/fields/"+strconv.Itoa(i)+"/selector")
		}); r != nil {
			return r
		}
		ac.Arm(ctx)
		for i, fl := range a.Fields {
			if err := pagejs.SetValue(ctx, ac.World(), ids[i], formValue(fl.Value)); err != nil {
				r := ac.Fail(ctx, err, a.TimeoutMs)
				if r == nil { // the field's own handlers opened a dialog: it was set
					f.FilledCount++
					of := 0
					if f.FilledCount < len(a.Fields) || submit {
						// The rest never reached the page: a partial effect.
						of = len(a.Fields)
						ac.Note(surface.EffectNone)
					}
					rec.Verb = language.Filled(f.FilledCount, of)
					return nil
				}
				rec.Verb = language.Filled(f.FilledCount, len(a.Fields))
				if pagejs.KindOf(err) == pagejs.KindNavigated {
					ac.Note(surface.EffectUnknown)
				} else {
					ac.Note(surface.EffectNone)
				}
				r.Pointer = "/fields/" + strconv.Itoa(i) + "/value"
				return r
			}
			ac.Note(surface.EffectApplied)
			f.FilledCount++
		}
		rec.Verb = language.Filled(f.FilledCount, 0)
		if !submit {
			return nil
		}
		pt, el, _, r := ac.Locate(ctx, a.SubmitTarget, a.SubmitSelector, locator(a.SubmitSelector, "/submit_target", "/submit_selector"), pagejs.LocateOptions{})
		if r != nil {
			ac.Note(surface.EffectNone)
			return r
		}
		rec.Verb = language.FilledAndClicked(f.FilledCount)
		rec.Object = language.Target(el, h.names)
		err := ac.Dispatch(ctx, func(ctx context.Context) (input.Effect, error) {
			return input.Click(ctx, ac.Tab().Page(), pt, surface.BrowserClickButtonPrimary, surface.ClickCountDefault)
		})
		f.Submitted = err == nil || ac.Dialog() != nil
		return act.InputRefusal(ctx, err, a.TimeoutMs)
	})
	if ac.Dialog() != nil && submit && ac.Dispatched() {
		f.Submitted = true
	}
	f.Landing, f.OpenedTabs, f.DialogType = ac.Landing(), ac.Opened(), ac.DialogType()
	return f, ac.Outcome("browser_fill_form", ref, rec, !submit, a.TimeoutMs, language.WhatSubmitClick)
}

// formValue converts a decoded field value to the page's typed value.
func formValue(v surface.Scalar) pagejs.Value {
	switch v.Kind {
	case surface.ScalarBool:
		return pagejs.BoolValue(v.Bool)
	case surface.ScalarNumber:
		return pagejs.NumberValue(v.Number)
	}
	return pagejs.StringValue(v.String)
}

// credential is the hand-off refusal for a credential-class element: nothing
// was dispatched to it, and its value never enters the result.
func (s *session) credential(ac *act.Act, it pagejs.Item, pointer string) *surface.Refusal {
	el := ac.Element(it.Role, it.Name)
	r := &surface.Refusal{Reason: surface.ReasonCredentialHandoff, Pointer: pointer, Message: language.Target(el, s.h.names)}
	s.Handoff(ac.Call(), ac.Tab(), r) // the person completes it (runtime/tools/person)
	return r
}
