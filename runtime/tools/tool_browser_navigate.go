package tools

import (
	"context"
	"fmt"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
)

// BrowserNavigate opens a governed URL in a controlled tab.
func (h *Handler) BrowserNavigate(ctx context.Context, a *surface.BrowserNavigateArgs) (*surface.BrowserNavigateFacts, surface.Outcome) {
	s := h.session(ctx)
	ctx, cancel := deadline(ctx, a.TimeoutMs)
	defer cancel()
	discard := a.Beforeunload == "discard"
	f := &surface.BrowserNavigateFacts{}
	var land browser.Landing
	var err error
	if a.Tab != "" {
		t, recreated, rerr := s.ws.Reopen(ctx, a.Tab)
		if rerr != nil {
			return nil, refused(refusalFor(rerr, a.TimeoutMs))
		}
		f.Tab, f.Recreated, f.Created = t.Handle(), recreated, recreated
		land, err = t.Navigate(ctx, a.URL, browser.NavigateOptions{DiscardBeforeUnload: discard})
	} else {
		var r browser.OpenResult
		r, err = s.ws.Open(ctx, a.URL, browser.OpenOptions{NewTab: a.NewTab, Reuse: a.Reuse, DiscardBeforeUnload: discard})
		if r.Tab != nil {
			f.Tab = r.Tab.Handle()
		}
		f.Created, f.Reused, land = r.Created, r.Reused, r.Landing
	}
	s.noteRelaunch(ctx)
	if err != nil {
		ref := refusalFor(err, a.TimeoutMs)
		if f.Tab == "" {
			return nil, refused(ref)
		}
		// The tab exists (and may have moved): report it truthfully.
		ref.Tab = ""
		f.URL, f.Title, f.DocumentGeneration = governedURL(landOr(err, land).URL), title(landOr(err, land).Title), int(landOr(err, land).Generation)
		eff := surface.EffectNone
		if f.Created || landOr(err, land).Committed {
			eff = surface.EffectApplied
		}
		return f, surface.Outcome{Effect: eff, Readiness: readinessOf(landOr(err, land).Readiness), Refusal: ref}
	}
	f.URL, f.Title = governLanding(ctx, land.URL, land.Title)
	f.DocumentGeneration = int(land.Generation)
	out := done(navigateText(f), land.Readiness, surface.EffectApplied, !f.Created)
	if land.Dialog != nil {
		out.Status = surface.StatusBlocked
		out.Refusal = &surface.Refusal{Reason: surface.ReasonDialogBlocking, DialogType: land.Dialog.Type}
		out.Summary = fmt.Sprintf("%s, but a %s dialog is blocking the page.", navigateSentence(f), land.Dialog.Type)
		out.NextSteps = []string{"Call browser_dialog to see the dialog, then accept, dismiss or respond."}
	}
	return f, out
}

// landOr prefers the landing an executor error observed.
func landOr(err error, l browser.Landing) browser.Landing {
	if be, ok := err.(*browser.Error); ok && be.Landing != nil {
		return *be.Landing
	}
	return l
}

func navigateSentence(f *surface.BrowserNavigateFacts) string {
	host := language.Host(f.URL)
	switch {
	case f.Reused:
		return fmt.Sprintf("Reused the %s tab", host)
	case f.Recreated:
		return fmt.Sprintf("Reopened %s in a new tab under %s, because its tab had closed", host, f.Tab)
	case f.Created:
		return fmt.Sprintf("Opened %s", host)
	}
	return fmt.Sprintf("Navigated %s to %s", f.Tab, host)
}

func navigateText(f *surface.BrowserNavigateFacts) language.Text {
	s := navigateSentence(f) + "."
	return language.Say(s, "Call browser_inspect or browser_find to get targets on the page.")
}
