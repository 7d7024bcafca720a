package tools

import (
	"context"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/boundary"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
	"github.com/ghostlight-dev/ghostlight/runtime/refusal"
	"github.com/ghostlight-dev/ghostlight/runtime/tools/outcome"
)

// BrowserHistory goes back, forward or reloads, and reports where the tab
// landed. It runs outside onTab's dialog guard because the executor itself
// watches for dialogs during the move and reports one in the landing.
func (h *Handler) BrowserHistory(ctx context.Context, a *surface.BrowserHistoryArgs) (*surface.BrowserHistoryFacts, surface.Outcome) {
	s := h.session(ctx)
	ctx, cancel := deadline(ctx, a.TimeoutMs)
	defer cancel()
	t, r := s.tab(ctx, a.Tab, "")
	if r != nil {
		return nil, outcome.Refused(r)
	}
	if r := admitPage(ctx, t); r != nil {
		return nil, outcome.Refused(r)
	}
	land, err := t.History(boundary.Governed(ctx), a.Action, a.BypassCache)
	if err != nil {
		ref := refusal.For(err, a.TimeoutMs)
		if ref.Reason == surface.ReasonNoHistoryEntry {
			ref.Message = a.Action // the sentence says which way there is nothing
		}
		l := landOr(err, land)
		if !l.Committed {
			ref.Tab = t.Handle()
			return nil, surface.Outcome{Effect: faultEffect(err, surface.EffectNone), Refusal: ref}
		}
		// The move committed before the failure (a timeout while loading, say):
		// report where the tab is now.
		ref.Tab = ""
		f := historyFacts(ctx, t, a.Action, l)
		if ref.Reason == surface.ReasonTimeout {
			// Still loading at the bound: the move happened, so the call
			// succeeded; readiness says loading and the next step waits.
			return f, outcome.Done(language.StillLoading(language.Moved(a.Action, f.Tab, f.URL)), l.Readiness, surface.EffectApplied, false)
		}
		return f, surface.Outcome{Effect: surface.EffectApplied, Readiness: outcome.Readiness(l.Readiness), Refusal: ref}
	}
	f := historyFacts(ctx, t, a.Action, land)
	// Repeating a move goes further (or reloads again, which may resubmit):
	// never known safe.
	out := outcome.Done(language.Moved(a.Action, f.Tab, f.URL), land.Readiness, surface.EffectApplied, false)
	if land.Loading != nil {
		text := loadingText(language.Moved(a.Action, f.Tab, f.URL), land.Loading)
		out.Summary, out.NextSteps = text.Summary, text.NextSteps
	}
	if land.Dialog != nil {
		// The move happened; the page then opened a dialog: succeeded, with
		// the dialog named in the facts and the next step.
		f.DialogType = surface.DialogType(land.Dialog.Type)
		text := language.DialogAfter(language.Moved(a.Action, f.Tab, f.URL), land.Dialog.Type)
		out.Summary, out.NextSteps = text.Summary, text.NextSteps
	}
	return f, out
}

func historyFacts(ctx context.Context, t *browser.Tab, action string, l browser.Landing) *surface.BrowserHistoryFacts {
	u, ttl := outcome.Landing(ctx, l.URL, l.Title)
	return &surface.BrowserHistoryFacts{Tab: t.Handle(), Action: action, URL: u, Title: ttl, DocumentGeneration: int(l.Generation)}
}
