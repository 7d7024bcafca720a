package tools

import (
	"sync"

	"github.com/go-rod/rod"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/evidence"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
)

// session is one MCP session's state beside its browser workspace: the
// isolated worlds of its tabs, its views and its document snapshots.
type session struct {
	h  *Handler
	ws *browser.Workspace

	mu         sync.Mutex
	worlds     map[*browser.Tab]*world
	views      *views
	snapshots  map[string]*snapshot // by tab handle: the current document snapshot
	snapSeq    uint64
	evidence   map[*browser.Tab]*evidence.Collector // browser_diagnose tracking, per tab
	recordings *recordings                          // browser_record, made on first use
}

type world struct {
	page *rod.Page
	w    *pagejs.World
}

func newSession(h *Handler, id string) *session {
	return &session{h: h, ws: h.b.Workspace(id), worlds: map[*browser.Tab]*world{}, views: newViews(), snapshots: map[string]*snapshot{}}
}

// world returns the isolated world of the tab's current page, making a new
// one when the tab was recreated behind its handle.
func (s *session) world(t *browser.Tab) *pagejs.World {
	page := t.Page()
	s.mu.Lock()
	defer s.mu.Unlock()
	if w := s.worlds[t]; w != nil && w.page == page {
		return w.w
	}
	w := &world{page: page, w: pagejs.NewWorld(page)}
	w.w.SetLimits(pagejs.Limits{NameMax: surface.TargetNameCharsMax, TitleMax: surface.TitleCharsMax, CredentialAutocomplete: surface.CredentialAutocomplete})
	s.worlds[t] = w
	return w.w
}
