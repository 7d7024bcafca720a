package tools

import (
	"context"
	"fmt"
	"strings"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/boundary"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
	"github.com/ghostlight-dev/ghostlight/runtime/refusal"
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
			return nil, refused(refusal.For(err, surface.TimeoutMsDefault))
		}
		f := &surface.BrowserTabsFacts{}
		withheld := 0
		for i, in := range infos {
			if i == surface.TabsListedMax {
				break
			}
			u, ttl, cut := governPage(ctx, in.URL, in.Title)
			if cut {
				withheld++
			}
			f.Tabs = append(f.Tabs, &surface.TabRow{Tab: in.Handle, Title: ttl, URL: u, Active: in.Active, Readiness: readinessOf(in.Readiness)})
		}
		withheldNote(ctx, withheld, language.Plural(withheld, "tab is", "tabs are"))
		return f, done(tabsText(f, len(infos), crashedOf(infos)), "", surface.EffectNone, true)
	case surface.BrowserTabsBranchFocus:
		r, err := s.ws.Focus(boundary.Governed(ctx), a.Tab)
		s.noteRelaunch(ctx)
		if err != nil {
			return nil, refused(refusal.For(err, surface.TimeoutMsDefault))
		}
		f := &surface.BrowserTabsFacts{Tab: a.Tab, Active: r.Active, WindowFocused: r.WindowFocused}
		return f, done(language.Say(fmt.Sprintf("Focused %s.", a.Tab)), "", surface.EffectApplied, true)
	default: // close
		r, err := s.ws.Close(ctx, a.Tab)
		s.noteRelaunch(ctx)
		if err != nil {
			return nil, refused(refusal.For(err, surface.TimeoutMsDefault))
		}
		f := &surface.BrowserTabsFacts{Tab: a.Tab, Closed: r.Closed}
		if !r.Closed {
			return f, done(language.Say(fmt.Sprintf("%s was already closed; nothing to do.", a.Tab)), "", surface.EffectNone, true)
		}
		return f, done(language.Say(fmt.Sprintf("Closed %s.", a.Tab)), "", surface.EffectApplied, true)
	}
}

func tabsText(f *surface.BrowserTabsFacts, all int, crashed []string) language.Text {
	if len(f.Tabs) == 0 {
		return language.Say("This session controls no tab.", "Open one with browser_navigate.")
	}
	s := fmt.Sprintf("Listed %s.", language.Plural(len(f.Tabs), "tab", "tabs")) // this session's, all of them
	if all > len(f.Tabs) {
		s = fmt.Sprintf("This session controls %d tabs; the first %s are listed.", all, language.Plural(len(f.Tabs), "is", "are"))
	}
	if len(crashed) == 0 {
		return language.Say(s)
	}
	// A crashed tab is listed with readiness unknown; its handle still works.
	names := strings.Join(crashed[:min(len(crashed), 3)], ", ")
	if len(crashed) > 3 {
		names += fmt.Sprintf(" and %d more", len(crashed)-3)
	}
	s += fmt.Sprintf(" The page of %s crashed.", names)
	return language.Say(s, "Call browser_navigate with a crashed tab's handle to reload it, or close it with browser_tabs.")
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
