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

// BrowserTabs lists, focuses or closes this session's tabs.
func (h *Handler) BrowserTabs(ctx context.Context, a *surface.BrowserTabsArgs) (*surface.BrowserTabsFacts, surface.Outcome) {
	s := h.session(ctx)
	ctx, cancel := deadline(ctx, 0)
	defer cancel()
	switch a.Branch() {
	case surface.BrowserTabsBranchList:
		infos, err := s.ws.Tabs(ctx)
		s.noteRelaunch(ctx)
		if err != nil {
			return nil, outcome.Refused(refusal.For(err, surface.TimeoutMsDefault))
		}
		f := &surface.BrowserTabsFacts{}
		withheld := 0
		for i, in := range infos {
			if i == surface.TabsListedMax {
				break
			}
			u, ttl, cut := outcome.Page(ctx, in.URL, in.Title)
			if cut {
				withheld++
			}
			f.Tabs = append(f.Tabs, &surface.TabRow{Tab: in.Handle, Title: ttl, URL: u, Active: in.Active, Readiness: outcome.Readiness(in.Readiness)})
		}
		outcome.Withheld(ctx, withheld, language.Plural(withheld, "tab is", "tabs are"))
		return f, outcome.Done(language.TabsListed(len(f.Tabs), len(infos), crashedOf(infos)), "", surface.EffectNone, true)
	case surface.BrowserTabsBranchFocus:
		r, err := s.ws.Focus(boundary.Governed(ctx), a.Tab)
		s.noteRelaunch(ctx)
		if err != nil {
			return nil, outcome.Refused(refusal.For(err, surface.TimeoutMsDefault))
		}
		f := &surface.BrowserTabsFacts{Tab: a.Tab, Active: r.Active, WindowFocused: r.WindowFocused}
		return f, outcome.Done(language.TabFocused(a.Tab), "", surface.EffectApplied, true)
	default: // close
		r, err := s.ws.Close(ctx, a.Tab)
		s.noteRelaunch(ctx)
		if err != nil {
			return nil, outcome.Refused(refusal.For(err, surface.TimeoutMsDefault))
		}
		f := &surface.BrowserTabsFacts{Tab: a.Tab, Closed: r.Closed}
		if !r.Closed {
			return f, outcome.Done(language.TabClosed(a.Tab, false), "", surface.EffectNone, true)
		}
		return f, outcome.Done(language.TabClosed(a.Tab, true), "", surface.EffectApplied, true)
	}
}

// crashedOf names the crashed tabs of a listing.
func crashedOf(infos []browser.TabInfo) []string {
	var out []string
	for _, in := range infos {
		if in.Crashed {
			out = append(out, in.Handle)
		}
	}
	return out
}
