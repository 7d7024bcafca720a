package tools

import (
	"context"
	"fmt"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
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
			return nil, refused(refusalFor(err, surface.TimeoutMsDefault))
		}
		f := &surface.BrowserTabsFacts{}
		for i, in := range infos {
			if i == surface.TabsListedMax {
				break
			}
			f.Tabs = append(f.Tabs, &surface.TabRow{Tab: in.Handle, Title: title(in.Title), URL: governedURL(in.URL), Active: in.Active, Readiness: string(readinessOf(in.Readiness))})
		}
		return f, done(tabsText(f, len(infos)), "", surface.EffectNone, true)
	case surface.BrowserTabsBranchFocus:
		r, err := s.ws.Focus(ctx, a.Tab)
		s.noteRelaunch(ctx)
		if err != nil {
			return nil, refused(refusalFor(err, surface.TimeoutMsDefault))
		}
		f := &surface.BrowserTabsFacts{Tab: a.Tab, Active: r.Active, WindowFocused: r.WindowFocused}
		return f, done(language.Say(fmt.Sprintf("Focused %s.", a.Tab)), "", surface.EffectApplied, true)
	default: // close
		r, err := s.ws.Close(ctx, a.Tab)
		s.noteRelaunch(ctx)
		if err != nil {
			return nil, refused(refusalFor(err, surface.TimeoutMsDefault))
		}
		f := &surface.BrowserTabsFacts{Tab: a.Tab, Closed: r.Closed}
		if !r.Closed {
			return f, done(language.Say(fmt.Sprintf("%s was already closed; nothing to do.", a.Tab)), "", surface.EffectNone, true)
		}
		return f, done(language.Say(fmt.Sprintf("Closed %s.", a.Tab)), "", surface.EffectApplied, true)
	}
}

func tabsText(f *surface.BrowserTabsFacts, all int) language.Text {
	if len(f.Tabs) == 0 {
		return language.Say("This session controls no tab.", "Open one with browser_navigate.")
	}
	s := fmt.Sprintf("This session controls %s.", language.Plural(len(f.Tabs), "tab", "tabs"))
	if all > len(f.Tabs) {
		s = fmt.Sprintf("This session controls %d tabs; the first %s are listed.", all, language.Plural(len(f.Tabs), "is", "are"))
	}
	return language.Say(s)
}
