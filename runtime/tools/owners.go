package tools

// Holds reports whether the session's workspace controls a live tab: the
// edge releases a stateless principal's workspace at once when it holds
// none (runtime/mcpedge/stateless.go).
func (h *Handler) Holds(id string) bool {
	h.mu.Lock()
	s := h.sessions[id]
	h.mu.Unlock()
	return s != nil && s.ws.TabCount() > 0
}
