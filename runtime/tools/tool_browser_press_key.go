package tools

import (
	"context"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/input"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
	"github.com/ghostlight-dev/ghostlight/runtime/refusal"
	"github.com/ghostlight-dev/ghostlight/runtime/tools/act"
	"github.com/ghostlight-dev/ghostlight/runtime/tools/outcome"
)

// keyDef turns one decoded key (a named key of the contract's table, or one
// character) into what the executor dispatches.
func keyDef(name string) input.KeyDef {
	if nk, ok := surface.NamedKeys[name]; ok {
		k := input.KeyDef{Key: name, Code: nk.Code, KeyCode: nk.KeyCode, Text: nk.Text}
		// A key that types a printable character reports that character as
		// its key value (Space is " "); Enter types "\r" but is "Enter".
		if r, n := utf8.DecodeRuneInString(nk.Text); n > 0 && n == len(nk.Text) && unicode.IsPrint(r) {
			k.Key = nk.Text
		}
		if strings.HasSuffix(nk.Code, "Left") {
			k.Location = 1
		}
		return k
	}
	r, _ := utf8.DecodeRuneInString(name)
	return input.CharKey(r)
}

// keyLabel names a key in facts and receipts: named keys by name, a space as
// Space, other characters as themselves.
func keyLabel(name string) string {
	if name == " " {
		return "Space"
	}
	return name
}

// BrowserPressKey presses one key or a list of strokes (repeated), holding
// the given modifiers, optionally after focusing a target.
func (h *Handler) BrowserPressKey(ctx context.Context, a *surface.BrowserPressKeyArgs) (*surface.BrowserPressKeyFacts, surface.Outcome) {
	s := h.session(ctx)
	ctx, cancel := deadline(ctx, a.TimeoutMs)
	defer cancel()
	t, ref := s.tab(ctx, a.Tab, a.Target)
	if ref != nil {
		return nil, outcome.Refused(ref)
	}
	names := a.Strokes
	repeat := a.Repeat
	if a.Branch() == surface.BrowserPressKeyBranchKey {
		names, repeat = []string{a.Key}, 1
	}
	if repeat < 1 {
		repeat = 1
	}
	keys := make([]input.KeyDef, len(names))
	labels := make([]string, len(names))
	types := false // some key inserts text
	for i, n := range names {
		keys[i], labels[i] = keyDef(n), keyLabel(n)
		types = types || keys[i].Text != "" && keys[i].Text != "\r"
	}
	label := strings.Join(labels, " ")
	if len(a.Modifiers) > 0 && len(names) == 1 {
		label = strings.Join(append(append([]string(nil), a.Modifiers...), labels[0]), "+")
	} else if len(a.Modifiers) > 0 {
		label = strings.Join(a.Modifiers, "+") + "+(" + label + ")"
	}
	f := &surface.BrowserPressKeyFacts{Tab: t.Handle(), Key: label}
	rec := language.Act{Verb: language.Pressed(label, repeat, false)}
	ac, ref := act.Perform(ctx, s, t, func(ctx context.Context, ac *act.Act) *surface.Refusal {
		if a.Target != "" || a.Selector != nil {
			id, r := ac.Resolve(ctx, a.Target, a.Selector, locator(a.Selector, "/target", "/selector"))
			if r != nil {
				return r
			}
			if r := ac.ReadyOne(ctx, id, locator(a.Selector, "/target", "/selector")); r != nil {
				return r
			}
			it, err := pagejs.Describe(ctx, ac.World(), id)
			if err != nil {
				return refusal.For(err, a.TimeoutMs)
			}
			// Characters pressed into a credential-class field are typing a
			// secret: hand it to the user as type_text would.
			if it.Credential && types {
				return s.credential(ac, it, "/target")
			}
			rec.Verb = language.Pressed(label, repeat, true)
			rec.Object = language.Target(ac.Element(it.Role, it.Name), h.names)
			if !it.State.Focused {
				ac.Arm(ctx)
				if err := pagejs.Focus(ctx, ac.World(), id); err != nil {
					return ac.Fail(ctx, err, a.TimeoutMs)
				}
			}
		} else if types {
			if id, ok, err := pagejs.FocusedEditable(ctx, ac.World()); err == nil && ok {
				if it, err := pagejs.Describe(ctx, ac.World(), id); err == nil && it.Credential {
					return s.credential(ac, it, "/key")
				}
			}
		}
		err := ac.Dispatch(ctx, func(ctx context.Context) (input.Effect, error) {
			if len(keys) == 1 {
				return input.PressKey(ctx, ac.Tab().Page(), keys[0], a.Modifiers, repeat)
			}
			return input.Strokes(ctx, ac.Tab().Page(), keys, a.Modifiers, repeat)
		})
		if err == nil {
			f.Pressed = len(keys) * repeat
		} else if len(keys)*repeat > 1 {
			ac.Cut(ctx) // a dialog stopped the presses part way
		}
		return act.InputRefusal(ctx, err, a.TimeoutMs)
	})
	if ac.Dialog() != nil && f.Pressed == 0 && ac.Dispatched() && len(keys)*repeat == 1 {
		f.Pressed = 1
	}
	f.Landing, f.OpenedTabs, f.DialogType = ac.Landing(), ac.Opened(), ac.DialogType()
	return f, ac.Outcome("browser_press_key", ref, rec, false, a.TimeoutMs, language.WhatKeyPress)
}
