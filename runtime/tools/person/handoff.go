package person

import (
	"context"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/handoff"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
)

// Credential handoffs. A credential-class field stops the call before any
// value reaches it (credential, in runtime/tools/tool_browser_fill_form.go);
// the tab is then waiting on the person, who types the value themselves, in
// the workbench's live view or in their own browser window, and hands the
// tab back. The model's next call on the tab says the person completed it.
// Nothing the person types passes through here: their input goes from the
// workbench straight to the browser. What waits on the person is kept by
// runtime/handoff (the Handler's Person store); this file asks them.

// Elicit asks the call's client to show the person a link (URL-mode
// elicitation, MCP 2025-11-25) and reports whether they accepted. ok is
// false when the client cannot be asked; complete tells the client, later,
// that the interaction behind the link is finished.
type Elicit func(ctx context.Context, id, url, message string) (accepted bool, complete func(), ok bool)

type elicitKey struct{}

// WithElicitation gives the calls under ctx the edge's way to reach the
// person through their client (nil: the client cannot be asked).
func WithElicitation(ctx context.Context, fn Elicit) context.Context {
	if fn == nil {
		return ctx
	}
	return context.WithValue(ctx, elicitKey{}, fn)
}

// Handoff opens (or keeps open) the tab's handoff for the credential stop r
// and tells the person where to complete it: r gains the workbench link, a
// headful window shows the tab, and a client that can show a link gets one.
func Handoff(ctx context.Context, s Session, t *browser.Tab, r *surface.Refusal) {
	// The person's keys reach no credential field of a site the model's
	// script ran on until they clear it (runtime/browser/scripted.go).
	r.SiteScripted = t.ModelScripted()
	Ask(ctx, s, t, r, handoff.KindCredential, nil)
}

// Flow asks the person, through the same handoff, to allow the write the
// call was stopped for (data_flow_confirm): handing the tab back allows it,
// and the model's repeat of the call then runs.
func Flow(ctx context.Context, s Session, t *browser.Tab, r *surface.Refusal) {
	approve := pipeline.FromContext(ctx).FlowApproval()
	Ask(ctx, s, t, r, handoff.KindFlow, func(answer string) {
		if approve != nil && answer != handoff.AnswerRefuse {
			approve()
		}
	})
}

// Ask opens (or keeps open) the tab's handoff and tells the person where to
// act: r gains the workbench link, a headful window shows the tab, and a
// client that can show a link gets one.
func Ask(ctx context.Context, s Session, t *browser.Tab, r *surface.Refusal, kind string, answer func(string)) {
	ws, person := s.Workspace(), s.Person()
	session, tab := ws.ID(), t.Handle()
	o := person.Open(session, tab, kind, language.Clean(r.Message), language.Host(t.URL()), answer)
	if o.Link != nil {
		r.HandoffURL = o.Link(session, tab)
	}
	if o.Focus {
		// The call still holds the tab: focus once it lets go.
		go func() {
			fctx, cancel := context.WithTimeout(context.Background(), time.Duration(surface.TimeoutMsDefault)*time.Millisecond)
			defer cancel()
			if _, err := ws.Focus(fctx, tab); err != nil {
				s.Log().Debug("handoff: focus", "tab", tab, "err", err)
			}
		}()
	}
	elicit, _ := ctx.Value(elicitKey{}).(Elicit)
	if elicit == nil || o.Ticket == nil || o.Asked {
		r.HandoffElicited = o.Asked
		return
	}
	u := o.Ticket(session, tab)
	if u == "" {
		return
	}
	// Waits for the person's answer within the call's own deadline.
	accepted, complete, ok := elicit(ctx, o.ID, u, language.HandoffAsk(kind, o.Field, o.Host))
	if !ok {
		return
	}
	person.Elicited(session, tab, o.ID, accepted, complete)
	r.HandoffElicited = accepted
}

// Note tells the model, in the summary of a call on the tab, that the
// person completed the tab's handoff (once), or that it is still open.
func Note(ctx context.Context, s Session, t *browser.Tab) {
	if note := s.Person().Note(s.Workspace().ID(), t.Handle()); note != "" {
		pipeline.FromContext(ctx).Note(note)
	}
}
