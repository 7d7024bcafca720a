package tools

import (
	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
)

// A credential the person typed stays theirs. Once the person has typed
// into a credential field through the workbench, the page holds it in its
// DOM, where script run by the model (browser_execute) could read it. The
// tab's document is then held: browser_execute on it is refused until the
// tab's document changes (a navigation raises its generation) or the person
// releases it in the workbench. browser_read, inspect and find never return
// a field's value, so they stay open.

// PersonTypedCredential records that the person typed into a credential
// field of the tab's document of generation gen.
func (h *Handler) PersonTypedCredential(session, tab string, gen uint64) {
	hs := &h.handoff
	hs.mu.Lock()
	defer hs.mu.Unlock()
	if hs.held == nil {
		hs.held = map[handoffKey]uint64{}
	}
	hs.held[handoffKey{session, tab}] = gen
}

// ReleaseCredential lets the model's script run on the tab's document
// again: the person says so. False when nothing was held.
func (h *Handler) ReleaseCredential(session, tab string) bool {
	hs := &h.handoff
	hs.mu.Lock()
	defer hs.mu.Unlock()
	k := handoffKey{session, tab}
	if _, ok := hs.held[k]; !ok {
		return false
	}
	delete(hs.held, k)
	return true
}

// CredentialHeld reports whether the person typed a credential into the
// tab's document of generation gen and has not released it.
func (h *Handler) CredentialHeld(session, tab string, gen uint64) bool {
	hs := &h.handoff
	hs.mu.Lock()
	defer hs.mu.Unlock()
	k := handoffKey{session, tab}
	g, ok := hs.held[k]
	if ok && g != gen {
		delete(hs.held, k) // the document changed: the typed value went with it
		return false
	}
	return ok
}

// heldCredential is browser_execute's and browser_screenshot's refusal on a held document (nil when
// the document is not held). Call it holding the tab.
func (s *session) heldCredential(t *browser.Tab) *surface.Refusal {
	if !s.h.CredentialHeld(s.ws.ID(), t.Handle(), t.Generation()) {
		return nil
	}
	return &surface.Refusal{Reason: surface.ReasonCredentialHandoff, Tab: t.Handle()}
}
