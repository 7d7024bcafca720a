package tools

import (
	"context"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/boundary"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
	"github.com/ghostlight-dev/ghostlight/runtime/refusal"
	"github.com/ghostlight-dev/ghostlight/runtime/tools/act"
	"github.com/ghostlight-dev/ghostlight/runtime/tools/person"
)

// deadline bounds a call by its timeout_ms (0: the spec default).
func deadline(ctx context.Context, timeoutMs int) (context.Context, context.CancelFunc) {
	if timeoutMs <= 0 {
		timeoutMs = surface.TimeoutMsDefault
	}
	return context.WithTimeout(ctx, time.Duration(timeoutMs)*time.Millisecond)
}

// tab resolves the tab a call names: its own handle, else the tab its target
// handle belongs to, else the only or sole active controlled tab.
func (s *session) tab(ctx context.Context, handle, target string) (*browser.Tab, *surface.Refusal) {
	if handle == "" && target != "" {
		if ref, st := s.targets.lookup(target); st == targetBound {
			handle = ref.tab
		}
	}
	t, err := s.ws.Resolve(ctx, handle)
	s.noteRelaunch(ctx)
	if err != nil {
		return nil, refusal.For(err, 0)
	}
	person.Note(ctx, s, t) // a credential handoff the person completed
	return t, nil
}

// noteRelaunch adds the relaunch sentence to this call's summary when the
// workspace's browser was relaunched since its last call, and has the result
// count the popups closed at once up to its end (facts popups_closed).
func (s *session) noteRelaunch(ctx context.Context) {
	inv := pipeline.FromContext(ctx)
	if s.ws.TakeRelaunched() {
		inv.Note(language.RelaunchNote)
	}
	if inv != nil { // taking twice in one call adds nothing
		inv.Carry(func(r *surface.Refusal) { r.PopupsClosed += s.ws.TakePopupsClosed() })
		boundary.CarryBlocked(s.ws, inv) // requests_blocked, blocked_hosts
		// download; one held for the person opens its handoff (runtime/tools/person)
		boundary.CarryDownloads(s.ws, inv, func(held bool) { person.AskHeldDownload(s, inv, held) })
	}
}

// admitPage checks the tab's current page against the call's authority: an
// action on a page is an action on its host.
func admitPage(ctx context.Context, t *browser.Tab) *surface.Refusal {
	inv := pipeline.FromContext(ctx)
	if inv == nil {
		return nil
	}
	u := t.URL()
	if u == "" || u == "about:blank" {
		return nil
	}
	if r := inv.Authority.AdmitURL(u); r != nil {
		r.Tab = t.Handle()
		return r
	}
	inv.Touched(u) // the audit names the page an action ran on (host only)
	// The page's site rules, and what the call writes against its site.
	if r := inv.AdmitPage(u); r != nil {
		r.Tab = t.Handle()
		return r
	}
	return nil
}

// onTab runs fn holding the tab (calls on one tab are serialized), after the
// page's host is admitted and with no dialog blocking it. fn's context is
// cancelled the moment a dialog opens.
func (s *session) onTab(ctx context.Context, t *browser.Tab, fn func(ctx context.Context) *surface.Refusal) *surface.Refusal {
	return s.onTabSaying(ctx, t, fn, nil)
}

// onTabSaying is onTab that hands said the popups its result says were
// closed (boundary.NoteHeld), once fn has returned.
func (s *session) onTabSaying(ctx context.Context, t *browser.Tab, fn func(ctx context.Context) *surface.Refusal, said func([]browser.Blocked)) *surface.Refusal {
	return s.Holding(ctx, t, said, func(hctx context.Context) (*surface.Refusal, error) {
		var ref *surface.Refusal
		err := t.Do(hctx, func(ctx context.Context) error {
			g, stop := t.Guard(ctx)
			defer stop()
			ref = fn(g)
			var blocking *browser.DialogState
			if context.Cause(g) == browser.ErrDialogOpened {
				if d, open := t.Dialog(); open {
					blocking = &d
				}
			}
			ref = act.Held(ref, context.Cause(g), browser.GoneCause(g), blocking)
			return nil
		})
		return ref, err
	})
}

// Holding admits the tab's page and, with no dialog blocking it, runs hold
// (which holds the tab: onTabSaying, or act.Perform) under the
// call's authority, then notes what the host boundary blocked meanwhile.
func (s *session) Holding(ctx context.Context, t *browser.Tab, said func([]browser.Blocked), hold func(ctx context.Context) (*surface.Refusal, error)) *surface.Refusal {
	if r := admitPage(ctx, t); r != nil {
		if r.Reason == surface.ReasonDataFlowConfirm { // the person allows it, or not
			person.Flow(ctx, s, t, r)
		}
		return r
	}
	if d, open := t.Dialog(); open {
		return &surface.Refusal{Reason: surface.ReasonDialogBlocking, DialogType: surface.DialogType(d.Type), Tab: t.Handle()}
	}
	mark := s.ws.BlockedMark()
	// The call's authority decides the tab's requests while it holds it.
	defer func() {
		popups := boundary.NoteHeld(ctx, s.ws, mark, t.Handle())
		if said != nil {
			said(popups)
		}
	}()
	ref, err := hold(person.HoldDownloads(ctx, s, t, boundary.Governed(ctx)))
	if err != nil {
		return refusal.For(err, 0)
	}
	if ref != nil && ref.Tab == "" {
		ref.Tab = t.Handle()
	}
	return ref
}

// tabFor resolves the tab of a call that may name it only through a target
// or a view handle.
func (s *session) tabFor(ctx context.Context, tab, target, view string) (*browser.Tab, *surface.Refusal) {
	if tab == "" && target == "" && view != "" {
		if e := s.views.get(view); e != nil {
			tab = e.tab
		}
	}
	return s.tab(ctx, tab, target)
}
