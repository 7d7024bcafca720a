package server

import (
	"context"
	"errors"
	"sort"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/audit"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/action"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/live"
	"github.com/ghostlight-dev/ghostlight/runtime/handoff"
	"github.com/ghostlight-dev/ghostlight/runtime/mcpedge"
	"github.com/ghostlight-dev/ghostlight/runtime/recordings"
	"github.com/ghostlight-dev/ghostlight/runtime/tools"
	"github.com/ghostlight-dev/ghostlight/runtime/workbench"
)

// WorkbenchOptions configure the person's workbench.
type WorkbenchOptions struct {
	// AllowedHosts and AllowedOrigins extend the Host and Origin checks as
	// for the MCP endpoint (mcpedge.HTTPOptions).
	AllowedHosts, AllowedOrigins []string
}

// WorkbenchLimits are the workbench's bounds, from spec/bounds.cue.
func WorkbenchLimits() workbench.Limits {
	return workbench.Limits{
		ActivityLines:  surface.WorkbenchActivityLinesMax,
		LiveViews:      surface.LiveViewsMax,
		InputChars:     surface.WorkbenchInputCharsMax,
		RequestBytes:   surface.WorkbenchRequestBytesMax,
		PollMs:         surface.WorkbenchPollMsMax,
		Tickets:        surface.WorkbenchTicketsMax,
		FullTickets:    surface.WorkbenchFullTicketsMax,
		Sessions:       surface.WorkbenchSessionsMax,
		TicketLifetime: surface.WorkbenchTicketMsMax * time.Millisecond,
		ClickCount:     surface.ClickCountMax,
		KeyChars:       surface.KeyCharsMax,
		WheelDelta:     surface.WheelTickPxMax * surface.WheelTicksMax,
		InputTimeout:   surface.TimeoutMsDefault * time.Millisecond,
	}
}

// liveLimits are a live view's bounds, from spec/bounds.cue.
var liveLimits = live.Limits{
	MaxEdge:     surface.LiveFrameEdgePxMax,
	Quality:     surface.LiveFrameQualityMax,
	MinGap:      surface.LiveFrameGapMsMax * time.Millisecond,
	MaxText:     surface.WorkbenchInputCharsMax,
	CallTimeout: surface.TimeoutMsDefault * time.Millisecond,
	FieldRead:   surface.TypedFieldReadMs * time.Millisecond,
}

// Workbench builds the person's workbench over this server (one per
// server): Policy reads the same authority the calls do, Activity the
// durable audit, Tabs and Recordings the executor and the handlers through
// workbenchBrowser. Credential handoffs then name its links, and focus the
// tab when the person has a window of the browser. Serve it with
// mcpedge.ListenAndServe, or mount it under --http (mcpedge.HTTPOptions),
// and call SetBase once it listens.
func (s *Server) Workbench(o WorkbenchOptions) (*workbench.Workbench, error) {
	if s.wb != nil {
		return s.wb, nil
	}
	auditPath := func() string {
		if j, ok := s.journal.(interface{ Config() audit.Config }); ok {
			return j.Config().Path
		}
		return ""
	}
	wb, err := workbench.New(workbench.Options{
		Browser:     workbenchBrowser{b: s.browser, h: s.handler},
		Policy:      s.policy,
		AuditPath:   auditPath,
		AuditStatus: func() string { return auditStatus(s.journal, s.policy()) },
		Guard:       mcpedge.Guard(o.AllowedHosts, o.AllowedOrigins),
		Limits:      WorkbenchLimits(),
		Logger:      s.log,
	})
	if err != nil {
		return nil, err
	}
	s.wb = wb
	s.handler.Person().SetOptions(handoff.Options{
		Link:   func(_, tab string) string { return wb.TabLink(tab) }, // tab handles are unique across sessions
		Ticket: func(_, tab string) string { return wb.Ticket(tab) },
		Focus:  s.browser.Headful(),
	})
	return wb, nil
}

// workbenchBrowser is the executor and the handlers' state as the workbench
// sees them. It changes nothing a model's call relies on: it lists, watches
// and, for the person, sends input and closes handoffs.
type workbenchBrowser struct {
	b *browser.Browser
	h *tools.Handler
}

func (a workbenchBrowser) Tabs() []workbench.Tab {
	waiting := map[string]handoff.Handoff{}
	for _, ho := range a.h.Handoffs() {
		waiting[ho.Tab] = ho
	}
	var out []workbench.Tab
	for _, t := range a.b.Controlled() {
		wt := workbench.Tab{Session: t.Workspace().ID(), Tab: t.Handle(), URL: tools.GovernedURL(t.URL()), Title: tools.Title(t.Title())}
		wt.Held = a.h.Person().Held(wt.Session, wt.Tab, t.Generation())
		wt.Scripted = t.ModelScripted()
		if ho, ok := waiting[t.Handle()]; ok && ho.Session == wt.Session {
			wt.Handoff = &workbench.Handoff{Kind: ho.Kind, Field: ho.Field, Host: ho.Host, Since: ho.Since}
		}
		out = append(out, wt)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Session < out[j].Session })
	return out
}

func (a workbenchBrowser) tab(handle string) *browser.Tab {
	for _, t := range a.b.Controlled() {
		if t.Handle() == handle {
			return t
		}
	}
	return nil
}

func (a workbenchBrowser) Live(ctx context.Context, handle string) (workbench.Live, error) {
	t := a.tab(handle)
	if t == nil {
		return nil, workbench.ErrNotFound
	}
	page, detach, err := t.SidePage(ctx)
	if err != nil {
		return nil, err
	}
	v, err := live.Start(ctx, page, detach, liveLimits)
	if err != nil {
		detach()
		return nil, err
	}
	lv := &liveView{v: v, frames: make(chan workbench.Frame), t: t, h: a.h,
		typed: &typedRun{person: a.h.Person(), session: t.Workspace().ID(), read: func(ctx context.Context) (live.Field, error) {
			return v.FocusedField(ctx, action.Frames(t))
		}}}
	go func() {
		defer close(lv.frames)
		for f := range v.Frames() {
			lv.frames <- workbench.Frame{Seq: f.Seq, JPEG: f.JPEG, Width: f.Width, Height: f.Height}
		}
	}()
	return lv, nil
}

func (a workbenchBrowser) HandBack(handle string) bool {
	for _, ho := range a.h.Handoffs() {
		if ho.Tab == handle {
			return a.h.Person().HandBack(ho.Session, handle)
		}
	}
	return false
}

// Answer closes the tab's handoff with the person's answer to a
// confirmation (once, page, refuse).
func (a workbenchBrowser) Answer(handle, answer string) bool {
	for _, ho := range a.h.Handoffs() {
		if ho.Tab == handle {
			return a.h.Person().Answer(ho.Session, handle, answer)
		}
	}
	return false
}

// Release lets the model's script run again on a tab's document the
// person typed a credential into; false when none was held.
func (a workbenchBrowser) Release(handle string) bool {
	t := a.tab(handle)
	if t == nil {
		return false
	}
	return a.h.Person().Release(t.Workspace().ID(), handle)
}

// ClearSite clears the tab's site for the person (browser.Tab.ClearSite):
// what the model's script left there goes, and the tab reloads.
func (a workbenchBrowser) ClearSite(ctx context.Context, handle string) error {
	t := a.tab(handle)
	if t == nil {
		return workbench.ErrNotFound
	}
	return t.ClearSite(ctx)
}

func (a workbenchBrowser) Recordings() []workbench.Recording {
	var out []workbench.Recording
	for _, r := range a.h.Recordings() {
		out = append(out, workbench.Recording{Session: r.Session, Handle: r.Handle, Tab: r.Tab, State: r.State, Frames: r.Frames,
			DurationMs: r.Duration.Milliseconds(), RetentionMs: r.RetentionLeft.Milliseconds()})
	}
	return out
}

func (a workbenchBrowser) RecordingGIF(session, handle string) ([]byte, error) {
	data, err := a.h.RecordingGIF(session, handle)
	if errors.Is(err, recordings.ErrNoRecording) {
		return nil, workbench.ErrNotFound
	}
	return data, err
}

// liveView adapts the executor's live view to the workbench's. The
// person's input goes to the page as it comes: it is never logged,
// audited or kept.
type liveView struct {
	v      *live.View
	frames chan workbench.Frame
	// The tab shown, and the handlers to tell when the person types into
	// a credential field (browser_execute is then refused on the document).
	t *browser.Tab
	h *tools.Handler
	// typed follows the person's keys into a credential field (typedrun.go).
	typed *typedRun
}

func (l *liveView) Frames() <-chan workbench.Frame { return l.frames }
func (l *liveView) Close() {
	l.typed.end()
	l.v.Close()
}

func (l *liveView) Input(ctx context.Context, e workbench.Input) error {
	switch e.Type {
	case "click":
		l.typed.end() // a click may move focus: the next key starts a new run
		return l.v.Click(ctx, e.X, e.Y, e.Button, e.Count)
	case "wheel":
		return l.v.Wheel(ctx, e.X, e.Y, e.DX, e.DY)
	case "key", "text":
		// Which field the keys reach, asked before they go: a field that
		// moves focus as it is typed into is the one that got them. When it
		// cannot be told, the document is held all the same.
		class, cerr := l.v.FocusedCredential(ctx, action.Frames(l.t))
		gen := l.t.Generation()
		if (class != "" || cerr != nil) && l.t.ModelScripted() {
			// The model's script ran on this site: what it left could read
			// these keys. They are not sent until the person clears it.
			return workbench.ErrScriptedSite
		}
		if class != "" || cerr != nil {
			// Held before the first key goes: a frame the page paints
			// with it is never kept, and no script or picture reads it.
			l.h.Person().Hold(l.t.Workspace().ID(), l.t.Handle(), gen)
			// Remembered as a hash before the key goes, and as the field
			// holds it once it went.
			return l.typed.credential(ctx, e, func() error { return l.send(ctx, e) })
		}
		l.typed.end()
		return l.send(ctx, e)
	}
	return errors.New("server: unknown input type")
}

// send sends a key or text event to the page.
func (l *liveView) send(ctx context.Context, e workbench.Input) error {
	if e.Type == "key" {
		return l.v.Key(ctx, e.Key, e.Modifiers)
	}
	return l.v.Text(ctx, e.Text)
}
