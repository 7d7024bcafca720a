package tools

import (
	"context"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
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
		if ref, ok := parseTarget(target); ok {
			handle = "tab_" + ref.tab
		}
	}
	t, err := s.ws.Resolve(ctx, handle)
	s.noteRelaunch(ctx)
	if err != nil {
		return nil, refusalFor(err, 0)
	}
	return t, nil
}

// relaunchNote is said once, by the first call after the browser had to be
// started again.
const relaunchNote = "The browser had stopped and was relaunched; earlier tabs closed."

// noteRelaunch adds the relaunch sentence to this call's summary when the
// workspace's browser was relaunched since its last call.
func (s *session) noteRelaunch(ctx context.Context) {
	if s.ws.TakeRelaunched() {
		pipeline.FromContext(ctx).Note(relaunchNote)
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
	return nil
}

// onTab runs fn holding the tab (calls on one tab are serialized), after the
// page's host is admitted and with no dialog blocking it. fn's context is
// cancelled the moment a dialog opens.
func (s *session) onTab(ctx context.Context, t *browser.Tab, fn func(ctx context.Context) *surface.Refusal) *surface.Refusal {
	if r := admitPage(ctx, t); r != nil {
		return r
	}
	if d, open := t.Dialog(); open {
		return &surface.Refusal{Reason: surface.ReasonDialogBlocking, DialogType: d.Type, Tab: t.Handle()}
	}
	var ref *surface.Refusal
	err := t.Do(ctx, func(ctx context.Context) error {
		g, stop := t.Guard(ctx)
		defer stop()
		ref = fn(g)
		if ref == nil && context.Cause(g) == browser.ErrDialogOpened {
			if d, open := t.Dialog(); open {
				ref = &surface.Refusal{Reason: surface.ReasonDialogBlocking, DialogType: d.Type}
			}
		}
		return nil
	})
	if err != nil {
		return refusalFor(err, 0)
	}
	if ref != nil && ref.Tab == "" {
		ref.Tab = t.Handle()
	}
	return ref
}
