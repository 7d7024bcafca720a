package tools

import (
	"context"
	"sync"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
	"github.com/ghostlight-dev/ghostlight/runtime/governance"
	"github.com/ghostlight-dev/ghostlight/runtime/handoff"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
)

// Consequential actions (policy confirm). Once an action's target is
// located, and before anything is dispatched, the control's role, name and
// the form it would submit are checked against the confirmations in force
// (governance/confirm.go). A match answers action_confirm and opens the
// tab's handoff (kind "confirm"); the person answers in the workbench
// (runtime/handoff keeps the answers: once, for this page, or refuse).
// Nothing the person answers reaches the model but through the next call's
// result.

// confirm checks an action on a control (role, accessible name, the URL
// it submits its form to, "" none) about to be dispatched on the act's
// page: nil to dispatch, or action_confirm (the act then asks the person,
// perform).
func (a *act) confirm(ctx context.Context, role, name, submit string) *surface.Refusal {
	inv := pipeline.FromContext(ctx)
	if inv == nil || inv.Authority == nil {
		return nil
	}
	page := a.t.URL()
	r := inv.Authority.ConfirmAction(page, role, name)
	if r == nil && submit != "" {
		r = inv.Authority.ConfirmSubmit(page, submit)
	}
	if r == nil {
		return nil
	}
	session, tab := a.s.ws.ID(), a.t.Handle()
	key, gen := role+"\x00"+name+"\x00"+submit, a.t.Generation()
	switch a.s.h.person.Decide(session, tab, key, gen) {
	case governance.ConfirmRun:
		return nil
	case governance.ConfirmRefused:
		r.Message = language.ConfirmRefused
		return r
	}
	a.asking = a.s.h.person.Recorder(session, tab, key, gen)
	return r
}

// confirmKey checks Enter or Space about to reach the focused element: on a
// control (a button, a link) it is an action on it, and Enter in a form's
// text field or on a submit control submits the form. Focus page code
// cannot see (a closed shadow root, a frame of another origin) is not
// looked into.
func (a *act) confirmKey(ctx context.Context, enter bool) *surface.Refusal {
	inv := pipeline.FromContext(ctx)
	if inv == nil || inv.Authority == nil || !inv.Authority.HasConfirmations() {
		return nil
	}
	id, ok, err := pagejs.Focused(ctx, a.w)
	if err != nil || !ok {
		return nil
	}
	it, err := pagejs.Describe(ctx, a.w, id)
	if err != nil {
		return nil
	}
	if it.Editable { // a text field: Enter submits its form, Space types
		if !enter || it.Enter == "" {
			return nil
		}
		return a.confirm(ctx, "", "", it.Enter)
	}
	return a.confirm(ctx, it.Role, it.Name, it.Submit)
}

// confirmDownloadKey is the action key of a download's approval.
const confirmDownloadKey = "\x00download"

// holdDownloads is gctx (the governed context of a call holding tab t)
// with downloads held for the person when confirm.downloads applies on
// t's page and no answer approves one there: a download the call starts
// is then refused before a byte is kept, its result says why, and the
// tab's handoff opens so the person can approve the repeat (answerable
// like an action). Downloads are started by the page, after dispatch, so
// they cannot wait before it as an action does.
func (s *session) holdDownloads(ctx context.Context, t *browser.Tab, gctx context.Context) context.Context {
	inv := pipeline.FromContext(ctx)
	if inv == nil || inv.Authority == nil || !inv.Authority.AllowsDownloads() {
		return gctx
	}
	r := inv.Authority.ConfirmsDownloads(t.URL())
	if r == nil {
		return gctx
	}
	session, tab, gen := s.ws.ID(), t.Handle(), t.Generation()
	if s.h.person.Decide(session, tab, confirmDownloadKey, gen) == governance.ConfirmRun {
		return gctx
	}
	r.Tab = tab
	hs := &s.h.held
	// The handoff opens only once a download was held (boundary.CarryDownloads),
	// without asking the client: the result is being written by then.
	quiet := context.WithValue(context.WithoutCancel(ctx), elicitKey{}, Elicit(nil))
	hs.mu.Lock()
	if hs.dlAsk == nil {
		hs.dlAsk = map[*pipeline.Invocation]func(){}
	}
	hs.dlAsk[inv] = func() {
		s.ask(quiet, t, r, handoff.KindConfirm, s.h.person.Recorder(session, tab, confirmDownloadKey, gen))
	}
	hs.mu.Unlock()
	return browser.WithDownloads(gctx, browser.DownloadPolicy{Allow: false, Held: true})
}

// askHeldDownload opens the handoff for a download the call held, once
// its result says so; forgetHeld drops the call's pending one.
func (s *session) askHeldDownload(inv *pipeline.Invocation, held bool) {
	hs := &s.h.held
	hs.mu.Lock()
	fn := hs.dlAsk[inv]
	delete(hs.dlAsk, inv)
	hs.mu.Unlock()
	if fn != nil && held {
		fn()
	}
}

// heldDownloads is, per call, the handoff to open if a download it starts
// is held (holdDownloads, askHeldDownload).
type heldDownloads struct {
	mu    sync.Mutex
	dlAsk map[*pipeline.Invocation]func()
}
