package tools

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/governance"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
)

// Credential handoffs. A credential-class field stops the call before any
// value reaches it (credential, in tool_browser_fill_form.go); the tab is
// then waiting on the person, who types the value themselves, in the
// workbench's live view or in their own browser window, and hands the tab
// back. The model's next call on the tab says the person completed it.
// Nothing the person types passes through here: their input goes from the
// workbench straight to the browser.

// HandoffOptions say how a credential handoff reaches the person; the
// server wires them to the workbench.
type HandoffOptions struct {
	// Link is the workbench's live view of a tab, for the model's words. It
	// carries no secret ("" when no workbench serves).
	Link func(session, tab string) string
	// Ticket is a link for the person's own client (a URL-mode
	// elicitation): it admits their browser to the workbench once ("" none).
	Ticket func(session, tab string) string
	// Focus brings the tab to the front of the window the person sees
	// (a headful browser, or the person's own in connect or manual mode).
	Focus bool
}

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

// Handoff is a tab waiting on the person, as the workbench shows it.
type Handoff struct {
	Session, Tab string
	// Kind is what the person is asked for: "credential" or "flow".
	Kind string
	// Field names the field the way the model's receipt does (its page name
	// quoted, or only its role when names are withheld).
	Field string
	Host  string
	Since time.Time
}

type handoffKey struct{ session, tab string }

type handoff struct {
	id       string       // the elicitation id
	kind     string       // handoffCredential or handoffFlow
	answer   func(string) // a flow or confirm: records the person's answer (confirm.go's Answer*)
	field    string
	host     string
	since    time.Time
	done     bool
	accepted bool   // the person's client showed them the link
	complete func() // tells the client the elicitation is finished
}

// handoffs is the Handler's handoff state.
type handoffs struct {
	mu    sync.Mutex
	opt   HandoffOptions
	seq   uint64
	byKey map[handoffKey]*handoff
	// held: the tab's document generation the person typed a credential
	// into (credheld.go).
	held map[handoffKey]uint64
	// confirms: the person's answers to consequential actions (confirm.go).
	confirms governance.ConfirmAnswers
	// dlAsk: per call, the handoff to open if a download it starts is held.
	dlAsk map[*pipeline.Invocation]func()
}

// SetHandoff says how handoffs reach the person (call before serving).
func (h *Handler) SetHandoff(o HandoffOptions) {
	h.handoff.mu.Lock()
	h.handoff.opt = o
	h.handoff.mu.Unlock()
}

// handoff opens (or keeps open) the tab's handoff for the credential stop r
// and tells the person where to complete it: r gains the workbench link, a
// headful window shows the tab, and a client that can show a link gets one.
func (s *session) handoff(ctx context.Context, t *browser.Tab, r *surface.Refusal) {
	// The person's keys reach no credential field of a site the model's
	// script ran on until they clear it (runtime/browser/scripted.go).
	r.SiteScripted = t.ModelScripted()
	s.ask(ctx, t, r, handoffCredential, nil)
}

// What the person is asked for.
const (
	handoffCredential = "credential" // to type a credential themselves
	handoffFlow       = "flow"       // to allow one cross-site write (data_flow: confirm)
	handoffConfirm    = "confirm"    // to approve or refuse a consequential action (confirm)
)

// confirmFlow asks the person, through the same handoff, to allow the
// write the call was stopped for (data_flow_confirm): handing the tab back
// allows it, and the model's repeat of the call then runs.
func (s *session) confirmFlow(ctx context.Context, t *browser.Tab, r *surface.Refusal) {
	approve := pipeline.FromContext(ctx).FlowApproval()
	s.ask(ctx, t, r, handoffFlow, func(answer string) {
		if approve != nil && answer != AnswerRefuse {
			approve()
		}
	})
}

// ask opens (or keeps open) the tab's handoff and tells the person where to
// act: r gains the workbench link, a headful window shows the tab, and a
// client that can show a link gets one.
func (s *session) ask(ctx context.Context, t *browser.Tab, r *surface.Refusal, kind string, answer func(string)) {
	hs := &s.h.handoff
	key := handoffKey{s.ws.ID(), t.Handle()}
	hs.mu.Lock()
	if hs.byKey == nil {
		hs.byKey = map[handoffKey]*handoff{}
	}
	ho := hs.byKey[key]
	if ho == nil || ho.done {
		hs.seq++
		ho = &handoff{id: "handoff_" + strconv.FormatUint(hs.seq, 10), since: time.Now()}
		hs.byKey[key] = ho
	}
	ho.field, ho.host = language.Clean(r.Message), language.Host(t.URL())
	if kind == handoffConfirm { // what waits, without the model's half of the sentence
		ho.field, _, _ = strings.Cut(ho.field, language.ConfirmWaits)
	}
	ho.kind, ho.answer = kind, answer
	opt := hs.opt
	asked := ho.accepted
	hs.mu.Unlock()

	if opt.Link != nil {
		r.HandoffURL = opt.Link(key.session, key.tab)
	}
	if opt.Focus {
		// The call still holds the tab: focus once it lets go.
		go func() {
			fctx, cancel := context.WithTimeout(context.Background(), time.Duration(surface.TimeoutMsDefault)*time.Millisecond)
			defer cancel()
			if _, err := s.ws.Focus(fctx, key.tab); err != nil {
				s.h.log.Debug("handoff: focus", "tab", key.tab, "err", err)
			}
		}()
	}
	elicit, _ := ctx.Value(elicitKey{}).(Elicit)
	if elicit == nil || opt.Ticket == nil || asked {
		r.HandoffElicited = asked
		return
	}
	u := opt.Ticket(key.session, key.tab)
	if u == "" {
		return
	}
	where := ""
	if ho.host != "" {
		where = " on " + ho.host
	}
	msg := fmt.Sprintf("Ghostlight stopped at %s%s: a credential only you should type. Open the workbench, type it into the tab's live view, then press Hand back.", ho.field, where)
	switch kind {
	case handoffFlow:
		msg = fmt.Sprintf("Ghostlight stopped %s%s. If you want this text sent there, open the workbench and press Hand back to allow this one write; otherwise leave it.", ho.field, where)
	case handoffConfirm:
		msg = fmt.Sprintf("Ghostlight stopped before %s%s. Open the workbench to approve it once, approve it for this page, or refuse it.", ho.field, where)
	}
	// Waits for the person's answer within the call's own deadline.
	accepted, complete, ok := elicit(ctx, ho.id, u, msg)
	if !ok {
		return
	}
	hs.mu.Lock()
	ho.accepted = accepted
	ho.complete = complete
	hs.mu.Unlock()
	r.HandoffElicited = accepted
}

// Handoff notes, said once by the model's next call on the tab.
const (
	handoffDoneNote = "The user completed the credential handoff on %s and handed the tab back; the page may have moved on."
	handoffOpenNote = "The credential handoff on %s is still open: the user has not handed the tab back yet."
	flowDoneNote    = "The user allowed the cross-site write on %s: repeat that call as it was to run it."
	flowOpenNote    = "The write waiting on the user on %s is not allowed yet."
	confirmDoneNote = "The user answered the action waiting on %s: repeat that call as it was; its result says whether it ran."
	confirmOpenNote = "The action waiting on the user on %s has no answer yet."
)

// noteHandoff tells the model, in the summary of a call on the tab, that
// the person completed the tab's handoff (once), or that it is still open.
func (s *session) noteHandoff(ctx context.Context, t *browser.Tab) {
	hs := &s.h.handoff
	key := handoffKey{s.ws.ID(), t.Handle()}
	hs.mu.Lock()
	ho := hs.byKey[key]
	if ho != nil && ho.done {
		delete(hs.byKey, key)
	}
	hs.mu.Unlock()
	if ho == nil {
		return
	}
	inv := pipeline.FromContext(ctx)
	done, open := handoffDoneNote, handoffOpenNote
	switch ho.kind {
	case handoffFlow:
		done, open = flowDoneNote, flowOpenNote
	case handoffConfirm:
		done, open = confirmDoneNote, confirmOpenNote
	}
	if ho.done {
		inv.Note(fmt.Sprintf(done, key.tab))
		return
	}
	inv.Note(fmt.Sprintf(open, key.tab))
}

// Handoffs lists the tabs waiting on the person, oldest first. Handoffs of
// sessions that ended are dropped.
func (h *Handler) Handoffs() []Handoff {
	h.mu.Lock()
	live := make(map[string]bool, len(h.sessions))
	for id := range h.sessions {
		live[id] = true
	}
	h.mu.Unlock()
	hs := &h.handoff
	hs.mu.Lock()
	defer hs.mu.Unlock()
	var out []Handoff
	for k, ho := range hs.byKey {
		if !live[k.session] {
			delete(hs.byKey, k)
			continue
		}
		if !ho.done {
			out = append(out, Handoff{Session: k.session, Tab: k.tab, Kind: ho.kind, Field: ho.field, Host: ho.host, Since: ho.since})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Since.Before(out[j].Since) })
	return out
}

// HandBack closes the tab's handoff: the person says they are done. The
// model's next call on the tab says so. False when no handoff was open.
// For a flow or a confirmation it is Answer's "once".
func (h *Handler) HandBack(session, tab string) bool {
	return h.Answer(session, tab, AnswerOnce)
}

// Answer closes the tab's handoff with the person's answer (AnswerOnce,
// AnswerPage, AnswerRefuse; a credential handoff takes any). False when no
// handoff was open.
func (h *Handler) Answer(session, tab, answer string) bool {
	hs := &h.handoff
	hs.mu.Lock()
	ho := hs.byKey[handoffKey{session, tab}]
	if ho == nil || ho.done {
		hs.mu.Unlock()
		return false
	}
	ho.done = true
	complete := ho.complete
	ho.complete = nil
	record := ho.answer
	ho.answer = nil
	hs.mu.Unlock()
	if record != nil { // the person's answer to the waiting write or action
		record(answer)
	}
	if complete != nil {
		go complete()
	}
	return true
}
