// Package tools implements the generated surface.Handler over the rod
// executor: one handler file per tool, and the session, targets and views
// they share; how a handler acts is runtime/tools/act's, how it asks the
// person runtime/tools/person's, and an action's lifecycle (arm, dispatch,
// settle, observe) runtime/browser/action's, called once per action.
// Handlers get typed arguments (decoded, classified and authorized by the
// pipeline) and return typed facts plus an outcome; they never parse
// arguments or build facts maps.
package tools

import (
	"context"
	"log/slog"
	"os"
	"sync"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/handoff"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
	"github.com/ghostlight-dev/ghostlight/runtime/tools/person"
)

// Options configure a Handler.
type Options struct {
	Browser *browser.Browser
	Logger  *slog.Logger
	// WithheldNames removes target names from receipts
	// (privacy.preserve_target_names: false).
	WithheldNames bool
	// StageDir holds bytes an upload drops onto a page ("" = a temp dir).
	StageDir string
	// WorkDir is the upload root when neither the policy nor the client
	// names one ("" = the working directory; upload_roots.go).
	WorkDir string
}

// Handler implements surface.Handler.
type Handler struct {
	b        *browser.Browser
	log      *slog.Logger
	names    bool
	stageDir string
	stage    *browser.OwnedDir // stageDir when this handler made it
	workDir  string

	mu       sync.Mutex
	sessions map[string]*session
	person   handoff.Store    // what waits on the person (Person)
	held     person.Downloads // per call, a held download's handoff (runtime/tools/person)
}

var _ surface.Handler = (*Handler)(nil)

// New builds a Handler.
func New(o Options) (*Handler, error) {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	var owned *browser.OwnedDir
	if o.StageDir == "" {
		// Owned (marked as this process's), so the next server sweeps it if this one is killed.
		base := ""
		if o.Browser != nil {
			base = o.Browser.TempDir()
		}
		d, err := browser.MakeOwnedDir(base, browser.StagePrefix)
		if err != nil {
			return nil, err
		}
		owned, o.StageDir = d, d.Path()
	}
	if o.WorkDir == "" {
		o.WorkDir, _ = os.Getwd()
	}
	return &Handler{b: o.Browser, log: o.Logger, names: !o.WithheldNames, stageDir: o.StageDir, stage: owned, workDir: o.WorkDir, sessions: map[string]*session{}}, nil
}

// Person is what waits on the person beside the model: handoffs, held
// credentials, confirmation answers. The server wires its options and the
// workbench reaches it through here; runtime/tools/person asks the person.
func (h *Handler) Person() *handoff.Store { return &h.person }

// Handoffs lists the tabs waiting on the person, oldest first. Handoffs of
// sessions that ended are dropped.
func (h *Handler) Handoffs() []handoff.Handoff {
	h.mu.Lock()
	live := make(map[string]bool, len(h.sessions))
	for id := range h.sessions {
		live[id] = true
	}
	h.mu.Unlock()
	return h.person.List(func(session string) bool { return live[session] })
}

// session returns the per-session state of the invocation in ctx.
func (h *Handler) session(ctx context.Context) *session {
	id := "default"
	if inv := pipeline.FromContext(ctx); inv != nil && inv.Session != "" {
		id = inv.Session
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	s := h.sessions[id]
	if s == nil {
		s = newSession(h, id)
		h.sessions[id] = s
	}
	return s
}

// Release ends a session: its tabs close and its handles are forgotten.
func (h *Handler) Release(ctx context.Context, id string) error {
	h.mu.Lock()
	s := h.sessions[id]
	delete(h.sessions, id)
	h.mu.Unlock()
	if s != nil {
		if recs := s.recorded(); recs != nil {
			recs.DiscardAll() // frames never outlive their session
		}
	}
	h.person.Forget(id) // what the person typed goes with the session
	return h.b.ReleaseWorkspace(ctx, id)
}

// Close releases staged bytes. The browser is closed by its owner.
func (h *Handler) Close() error {
	if h.stage != nil {
		return h.stage.Remove()
	}
	return os.RemoveAll(h.stageDir)
}
