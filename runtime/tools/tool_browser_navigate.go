package tools

import (
	"context"
	"errors"
	"strconv"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/boundary"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
	"github.com/ghostlight-dev/ghostlight/runtime/refusal"
	"github.com/ghostlight-dev/ghostlight/runtime/tools/outcome"
)

// BrowserNavigate opens a governed URL in a controlled tab.
func (h *Handler) BrowserNavigate(ctx context.Context, a *surface.BrowserNavigateArgs) (*surface.BrowserNavigateFacts, surface.Outcome) {
	s := h.session(ctx)
	ctx, cancel := deadline(ctx, a.TimeoutMs)
	defer cancel()
	ctx = boundary.Governed(ctx) // every hop is held to the call's authority
	discard := a.Beforeunload == "discard"
	pipeline.FromContext(ctx).Stage(language.NavigatingTo(a.URL)) // progress a client sees
	f := &surface.BrowserNavigateFacts{}
	var land browser.Landing
	var err error
	if (a.NewTab || a.Tab != "" && !s.ws.Live(a.Tab)) && s.ws.TabCount() >= surface.SessionTabsMax {
		return nil, outcome.Refused(&surface.Refusal{Reason: surface.ReasonTabLimit, Limit: strconv.Itoa(surface.SessionTabsMax)})
	}
	dlMark := s.ws.DownloadMark() // a URL that answers with a download (download.go)
	if a.Tab != "" {
		t, recreated, rerr := s.ws.Reopen(ctx, a.Tab)
		if rerr != nil {
			return nil, outcome.Refused(refusal.For(rerr, a.TimeoutMs))
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
	s.ws.AwaitDownloads(ctx)
	s.noteRelaunch(ctx)
	if err != nil && f.Tab != "" && s.ws.DownloadedSince(dlMark) && browser.KindOf(err) == browser.KindNavigation {
		// The URL answered with a download: no page committed, the tab stayed
		// where it was, and the download fact says what became of the file.
		return f, navigatedToDownload(f, landOr(err, land))
	}
	if err != nil {
		ref := refusal.For(err, a.TimeoutMs)
		if ref.Reason == surface.ReasonHostDenied && f.Tab == "" {
			ref.Message = language.StoppedInBrowserNoTab(ref.Layer)
			ref.Tab = ""
		}
		if f.Tab == "" {
			return nil, surface.Outcome{Effect: faultEffect(err, surface.EffectNone), Refusal: ref}
		}
		// The tab exists (and may have moved): report it truthfully.
		ref.Tab = ""
		if l := landOr(err, land); ref.Reason == surface.ReasonTimeout && l.Committed {
			// The page committed and was still loading at the bound: the
			// navigation happened, so the call succeeded; readiness says
			// loading and the next step waits for the load.
			f.URL, f.Title = outcome.Landing(ctx, l.URL, l.Title)
			f.DocumentGeneration = int(l.Generation)
			return f, outcome.Done(language.StillLoading(navigateText(f)), l.Readiness, surface.EffectApplied, false)
		}
		f.URL, f.Title, f.DocumentGeneration = outcome.URL(landOr(err, land).URL), outcome.Title(landOr(err, land).Title), int(landOr(err, land).Generation)
		eff := faultEffect(err, surface.EffectNone)
		if f.Created || landOr(err, land).Committed {
			eff = surface.EffectApplied
		}
		return f, surface.Outcome{Effect: eff, Readiness: outcome.Readiness(landOr(err, land).Readiness), Refusal: ref}
	}
	f.URL, f.Title = outcome.Landing(ctx, land.URL, land.Title)
	f.DocumentGeneration = int(land.Generation)
	out := outcome.Done(navigateText(f), land.Readiness, surface.EffectApplied, !f.Created)
	if land.Loading != nil {
		text := loadingText(navigateText(f), land.Loading)
		out.Summary, out.NextSteps, out.RepeatSafe = text.Summary, text.NextSteps, false
	}
	if land.Dialog != nil {
		// The navigation happened; the new page then opened a dialog. The
		// call succeeded: the facts name the dialog and the next step answers it.
		f.DialogType = surface.DialogType(land.Dialog.Type)
		text := language.DialogAfter(navigateText(f), land.Dialog.Type)
		out.Summary, out.NextSteps = text.Summary, text.NextSteps
		out.RepeatSafe = false
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

// navigateText words the landing the facts hold.
func navigateText(f *surface.BrowserNavigateFacts) language.Text {
	return language.Navigated(f.URL, f.Tab, f.Reused, f.Recreated, f.Created)
}

// loadingText adds to a receipt what of its page still loads (language.StillFetching).
func loadingText(t language.Text, l *browser.Loading) language.Text {
	return language.StillFetching(t, l.Images, l.Frames)
}

// faultEffect is the effect of a navigation-like call that ended in err: after its
// command reached the browser, a timeout, a cancellation, a crash or a dead browser
// leave unknown whether the browser went on to commit it (a frozen browser that
// resumes does), so none stands only when the browser answered (a network error, a
// refused prompt) or nothing was sent.
func faultEffect(err error, none surface.Effect) surface.Effect {
	var be *browser.Error
	if !errors.As(err, &be) {
		return surface.EffectUnknown
	}
	switch be.Kind {
	case browser.KindTimeout, browser.KindCanceled, browser.KindTabCrashed, browser.KindBrowserGone, browser.KindInternal:
		if be.Sent || be.Op == "open" { // "open": a tab may still appear
			return surface.EffectUnknown
		}
	}
	return none
}
