package act

import (
	"context"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
	"github.com/ghostlight-dev/ghostlight/runtime/governance"
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

// Confirm checks an action on a control (role, accessible name, the URL
// it submits its form to, "" none) about to be dispatched on the act's
// page: nil to dispatch, or action_confirm (the act then asks the person,
// Perform).
func (a *Act) Confirm(ctx context.Context, role, name, submit string) *surface.Refusal {
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
	session, tab := a.s.Workspace().ID(), a.t.Handle()
	key, gen := role+"\x00"+name+"\x00"+submit, a.t.Generation()
	switch a.s.Person().Decide(session, tab, key, gen) {
	case governance.ConfirmRun:
		return nil
	case governance.ConfirmRefused:
		r.Message = language.ConfirmRefused
		return r
	}
	a.asking = a.s.Person().Recorder(session, tab, key, gen)
	return r
}

// confirmKey checks Enter or Space about to reach the focused element: on a
// control (a button, a link) it is an action on it, and Enter in a form's
// text field or on a submit control submits the form. Focus page code
// cannot see (a closed shadow root, a frame of another origin) is not
// looked into.
func (a *Act) confirmKey(ctx context.Context, enter bool) *surface.Refusal {
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
		return a.Confirm(ctx, "", "", it.Enter)
	}
	return a.Confirm(ctx, it.Role, it.Name, it.Submit)
}
