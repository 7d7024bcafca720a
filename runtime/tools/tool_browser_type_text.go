package tools

import (
	"context"
	"errors"
	"unicode/utf8"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/action"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/input"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
	"github.com/ghostlight-dev/ghostlight/runtime/refusal"
	"github.com/ghostlight-dev/ghostlight/runtime/tools/act"
	"github.com/ghostlight-dev/ghostlight/runtime/tools/outcome"
)

// BrowserTypeText types text with real per-character key events into a
// target, a selector match, or the focused editable control.
func (h *Handler) BrowserTypeText(ctx context.Context, a *surface.BrowserTypeTextArgs) (*surface.BrowserTypeTextFacts, surface.Outcome) {
	s := h.session(ctx)
	ctx, cancel := deadline(ctx, a.TimeoutMs)
	defer cancel()
	t, ref := s.tab(ctx, a.Tab, a.Target)
	if ref != nil {
		return nil, outcome.Refused(ref)
	}
	f := &surface.BrowserTypeTextFacts{Tab: t.Handle(), Target: a.Target}
	total := utf8.RuneCountInString(a.Text)
	rec := language.Act{}
	ac, ref := act.Perform(ctx, s, t, func(ctx context.Context, ac *act.Act) *surface.Refusal {
		var id int
		pointer := "/target"
		switch a.Branch() {
		case surface.BrowserTypeTextBranchFocused:
			pointer = "/focused"
			fo, err := ac.Action().Focused(ctx)
			if err != nil {
				return refusal.For(err, a.TimeoutMs)
			}
			if !fo.Seen {
				return s.typeUnseen(ctx, ac, a, f, &rec, fo.Receiver)
			}
			id = fo.ID
		default:
			if a.Selector != nil {
				pointer = "/selector"
			}
			var r *surface.Refusal
			if id, r = ac.Resolve(ctx, a.Target, a.Selector, pointer); r != nil {
				return r
			}
			if r = ac.ReadyOne(ctx, id, pointer); r != nil {
				return r
			}
		}
		it, err := pagejs.Describe(ctx, ac.World(), id)
		if err != nil {
			return refusal.For(err, a.TimeoutMs)
		}
		// Nothing reaches a credential-class field: not a clear, not a key.
		if it.Credential {
			return s.credential(ac, it, pointer)
		}
		switch {
		case it.State.Disabled:
			return &surface.Refusal{Reason: surface.ReasonTargetDisabled, Pointer: pointer}
		case !it.Editable || it.State.ReadOnly:
			return &surface.Refusal{Reason: surface.ReasonNotEditable, Pointer: pointer, Message: language.MsgNotTypable}
		}
		el := ac.Element(it.Role, it.Name)
		if f.Target == "" {
			f.Target = s.targetHandle(ac.Tab(), ac.Tab().Generation(), id)
		}
		rec.Object = language.Target(el, h.names)
		typed, err := ac.Action().TypeInto(ctx, ac.KeyGuard(), id, it.State.Focused, a.ClearFirst, a.Text)
		var se *action.StepError
		if errors.As(err, &se) {
			r := ac.Fail(ctx, se.Err, a.TimeoutMs)
			if r != nil && se.Step == action.StepFocus {
				ac.Note(surface.EffectNone)
			}
			return r
		}
		return afterTyping(ctx, ac, err, a, f, &rec, a.ClearFirst, typed, total)
	})
	f.Landing, f.OpenedTabs, f.DialogType = ac.Landing(), ac.Opened(), ac.DialogType()
	return f, ac.Outcome("browser_type_text", ref, rec, false, a.TimeoutMs, language.WhatTyping)
}

// afterTyping words what typing did: the characters that reached the page, and a
// dialog that stopped it part way.
func afterTyping(ctx context.Context, ac *act.Act, err error, a *surface.BrowserTypeTextArgs, f *surface.BrowserTypeTextFacts, rec *language.Act, cleared bool, typed, total int) *surface.Refusal {
	f.CharacterCount, f.Typed = typed, typed == total
	rec.Verb = language.Typed(cleared, typed, total)
	if r := act.InputRefusal(ctx, err, a.TimeoutMs); r != nil {
		return r
	}
	if typed < total {
		ac.Cut(ctx) // a dialog stopped the typing
		if ac.Effect() == surface.EffectApplied {
			ac.Note(surface.EffectPartial)
		}
	}
	return nil
}

// typeUnseen types into focus that page code cannot see: the receiver walk
// (input.FocusedReceiver, through closed shadow roots and cross-origin
// frames) names the focused element; a credential field stops for the
// handoff, a text field or text area is typed into (the key guard checks
// each key again), anything else takes no typed text.
func (s *session) typeUnseen(ctx context.Context, ac *act.Act, a *surface.BrowserTypeTextArgs, f *surface.BrowserTypeTextFacts, rec *language.Act, rc input.Receiver) *surface.Refusal {
	const pointer = "/focused"
	if rc.Credential != "" {
		r := &surface.Refusal{Reason: surface.ReasonCredentialHandoff, Pointer: pointer, Message: language.FocusedCredential(rc.Credential)}
		s.Handoff(ac.Call(), ac.Tab(), r)
		return r
	}
	if rc.Tag != "input" && rc.Tag != "textarea" || a.ClearFirst {
		return &surface.Refusal{Reason: surface.ReasonNotEditable, Pointer: pointer, Message: language.MsgNoFocusedEditable}
	}
	rec.Object = language.FocusedField
	typed, err := ac.Action().TypeText(ctx, ac.KeyGuard(), a.Text)
	return afterTyping(ctx, ac, err, a, f, rec, false, typed, utf8.RuneCountInString(a.Text))
}
