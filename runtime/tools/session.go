package tools

import (
	"context"
	"log/slog"
	"sync"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/boundary"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/evidence"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/input"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
	"github.com/ghostlight-dev/ghostlight/runtime/handle"
	"github.com/ghostlight-dev/ghostlight/runtime/handoff"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
	"github.com/ghostlight-dev/ghostlight/runtime/recordings"
	"github.com/ghostlight-dev/ghostlight/runtime/tools/act"
	"github.com/ghostlight-dev/ghostlight/runtime/tools/person"
)

// session is one MCP session's state beside its browser workspace: its
// views and its document snapshots. What belongs to one tab's page (its
// world, runner and evidence collector) is kept on the tab (browser.Kept)
// and freed when the page goes.
type session struct {
	h  *Handler
	ws *browser.Workspace

	mu         sync.Mutex
	views      *views
	targets    *targets             // target handles (targets.go)
	snapshots  map[string]*snapshot // by tab handle: the current document snapshot
	snapSeq    uint64
	snapCodec  *handle.Codec     // snapshot handles (snapshot.go), made on first use
	recordings *recordings.Store // browser_record, made on first use
}

// A session is what an act asks of its call's session (runtime/tools/act),
// and what asking the person needs of it (runtime/tools/person).
var (
	_ act.Session    = (*session)(nil)
	_ person.Session = (*session)(nil)
)

// keptWorld and keptEvidence are the per-page state a session keeps on a tab.
var (
	keptWorld    = browser.NewKept[*world]()
	keptEvidence = browser.NewKept[*evidence.Collector]() // browser_diagnose tracking
)

// world is the isolated world of one live page target behind a tab, and
// the script runner kept in its main world.
type world struct {
	target string
	w      *pagejs.World
	run    *input.Runner
}

func newSession(h *Handler, id string) *session {
	return &session{h: h, ws: h.b.Workspace(id), views: newViews(h.b.Replica()), targets: newTargets(h.b.Replica()), snapshots: map[string]*snapshot{}}
}

// World returns the isolated world of the tab's current page, making a new
// one when the tab was recreated behind its handle.
func (s *session) World(t *browser.Tab) *pagejs.World { return s.pageWorld(t).w }

// runner returns the script runner kept for the tab's current page.
func (s *session) runner(t *browser.Tab) *input.Runner { return s.pageWorld(t).run }

func (s *session) pageWorld(t *browser.Tab) *world {
	page, target := t.Page(), string(t.TargetID())
	s.mu.Lock()
	defer s.mu.Unlock()
	// A tab whose page just went away keeps its target id: its world's
	// calls then fail like any call on a closed page.
	if w, ok := keptWorld.Get(t); ok && w.target == target {
		return w
	}
	w := &world{target: target, w: pagejs.NewWorld(page), run: input.NewRunner()}
	if page == nil {
		return w // no live page yet: nothing is kept
	}
	w.w.SetLimits(pagejs.Limits{NameMax: surface.TargetNameCharsMax, TitleMax: surface.TitleCharsMax, CredentialAutocomplete: surface.CredentialAutocomplete})
	w.w.SetFrames(boundary.FrameSource(t)) // cross-origin frames of admitted hosts
	keptWorld.Put(t, w)
	return w
}

// Workspace is the session's browser workspace.
func (s *session) Workspace() *browser.Workspace { return s.ws }

// Person is what waits on the person (the Handler's).
func (s *session) Person() *handoff.Store { return &s.h.person }

// Downloads is, per call, the handoff of a held download (the Handler's).
func (s *session) Downloads() *person.Downloads { return &s.h.held }

// Log is the handler's logger.
func (s *session) Log() *slog.Logger { return s.h.log }

// OnTab is onTab, for what asking the person reads holding a tab.
func (s *session) OnTab(ctx context.Context, t *browser.Tab, fn func(ctx context.Context) *surface.Refusal) *surface.Refusal {
	return s.onTab(ctx, t, fn)
}

// Handoff opens t's credential handoff for the stop r (person.Handoff).
func (s *session) Handoff(ctx context.Context, t *browser.Tab, r *surface.Refusal) {
	person.Handoff(ctx, s, t, r)
}

// Ask opens t's handoff of kind for r (person.Ask).
func (s *session) Ask(ctx context.Context, t *browser.Tab, r *surface.Refusal, kind string, answer func(string)) {
	person.Ask(ctx, s, t, r, kind, answer)
}

// NamesOn reports whether the call under ctx may name the elements it
// touches in receipts and refusals: privacy.preserve_target_names of the
// call's own authority snapshot (so a reload applies from the next call),
// and never when the handler was built to withhold names. Perception a
// model asks for (inspect, find, read) names what it sees either way.
func (s *session) NamesOn(ctx context.Context) bool {
	if !s.h.names {
		return false
	}
	if inv := pipeline.FromContext(ctx); inv != nil && inv.Authority != nil {
		return inv.Authority.PreserveTargetNames()
	}
	return true
}
