package tools

import (
	"context"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/boundary"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/input"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
	"github.com/ghostlight-dev/ghostlight/runtime/refusal"
	"github.com/ghostlight-dev/ghostlight/runtime/tools/outcome"
)

// BrowserDialog reports or resolves the JavaScript dialog blocking a tab.
// The dialog's text never leaves memory: not in facts, summary, logs or
// audit.
func (h *Handler) BrowserDialog(ctx context.Context, a *surface.BrowserDialogArgs) (*surface.BrowserDialogFacts, surface.Outcome) {
	s := h.session(ctx)
	ctx, cancel := deadline(ctx, 0)
	defer cancel()
	t, ref := s.tab(ctx, a.Tab, "")
	if ref != nil {
		return nil, outcome.Refused(ref)
	}
	if r := admitPage(ctx, t); r != nil {
		return nil, outcome.Refused(r)
	}
	f := &surface.BrowserDialogFacts{Tab: t.Handle()}
	d, open := t.Dialog()
	host := language.Host(t.URL())
	if a.Branch() == surface.BrowserDialogBranchStatus {
		f.Present = open
		if !open {
			return f, outcome.Done(language.DialogNone(host), "", surface.EffectNone, true)
		}
		f.DialogType = surface.DialogType(d.Type)
		return f, outcome.Done(language.DialogOpen(d.Type, host), "", surface.EffectNone, true)
	}
	if !open {
		return f, outcome.Refused(&surface.Refusal{Reason: surface.ReasonNoDialog})
	}
	f.DialogType = surface.DialogType(d.Type)
	if a.Branch() == surface.BrowserDialogBranchRespond && d.Type != browser.DialogPrompt {
		return f, outcome.Refused(&surface.Refusal{Reason: surface.ReasonInvalidArguments, Pointer: "/text",
			Message: language.OnlyPromptTakesText(d.Type)})
	}
	accept := a.Branch() != surface.BrowserDialogBranchDismiss
	var text *string
	if a.Branch() == surface.BrowserDialogBranchRespond {
		text = a.Text
	}
	readiness := ""
	err := t.Do(boundary.Governed(ctx), func(ctx context.Context) error { // the call's hosts hold what the answer starts
		if err := input.HandleDialog(ctx, t.Page(), accept, text); err != nil {
			return err
		}
		// One page round trip after the answer: the page's script resumes
		// before the renderer serves it, so a dialog that script opens next
		// (a chain of alerts) is open by the time it returns, and the
		// executor's dialog guard ends it at once instead of hanging.
		readiness, _ = t.Readiness(ctx)
		return nil
	})
	if err != nil {
		r := refusal.For(err, surface.TimeoutMsDefault)
		if input.KindOf(err) == input.KindTimeout || r.Reason == surface.ReasonTimeout {
			return f, surface.Outcome{Status: surface.StatusUnknown, Effect: surface.EffectUnknown, Refusal: r}
		}
		return f, outcome.Refused(r)
	}
	f.Handled, f.Accepted = true, accept
	txt := language.DialogAnswered(text != nil, accept, d.Type, host)
	// Another dialog may follow at once (a chain of alerts).
	if d2, again := t.Dialog(); again && d2.Opened.After(d.Opened) {
		f.Present = true
		txt = language.DialogAgain(txt, d2.Type)
	}
	return f, outcome.Done(txt, readiness, surface.EffectApplied, false)
}
