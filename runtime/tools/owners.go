package tools

import (
	"strings"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// Owner is the session whose workspace holds the live tab a tab handle
// names, for routing calls that carry no protocol session (MCP
// 2026-07-28 over HTTP, runtime/mcpedge/stateless.go). Other strings are
// not routable.
func (h *Handler) Owner(handle string) (string, bool) {
	tab, ok := tabOfHandle(handle)
	if !ok {
		return "", false
	}
	h.mu.Lock()
	sessions := make(map[string]*session, len(h.sessions))
	for id, s := range h.sessions {
		sessions[id] = s
	}
	h.mu.Unlock()
	for id, s := range sessions {
		if s.ws.Live(tab) {
			return id, true
		}
	}
	return "", false
}

// Holds reports whether the session's workspace controls a live tab.
func (h *Handler) Holds(id string) bool {
	h.mu.Lock()
	s := h.sessions[id]
	h.mu.Unlock()
	return s != nil && s.ws.TabCount() > 0
}

// tabOfHandle is the tab handle among a call's strings. Only tab handles
// route: they carry 128 random bits (browser.newHandle), while target, view
// and other handles are short and keyed per session, so a guess must never
// reach a workspace by them.
func tabOfHandle(h string) (string, bool) {
	if len(h) > surface.HandleCharsMax || !strings.HasPrefix(h, surface.HandlePrefixTab+"_") {
		return "", false
	}
	return h, true
}
