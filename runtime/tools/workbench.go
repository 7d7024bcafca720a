package tools

import (
	"sort"

	"github.com/ghostlight-dev/ghostlight/runtime/recordings"
	"github.com/ghostlight-dev/ghostlight/runtime/tools/outcome"
)

// Read-only views of the handler's state for the person's workbench (wired
// by the server). Nothing here changes a session, and nothing here reaches
// the model.

// GovernedURL is a tab's URL as facts carry it: no credentials, no
// fragment, bounded.
func GovernedURL(raw string) string { return outcome.URL(raw) }

// Title is a page title as facts carry it: cleaned and bounded.
func Title(s string) string { return outcome.Title(s) }

// Recordings lists every session's recordings that still hold frames.
func (h *Handler) Recordings() []recordings.Recording {
	h.mu.Lock()
	sessions := make([]*session, 0, len(h.sessions))
	for _, s := range h.sessions {
		sessions = append(sessions, s)
	}
	h.mu.Unlock()
	var out []recordings.Recording
	for _, s := range sessions {
		if rs := s.recorded(); rs != nil {
			out = append(out, rs.List()...)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Session != out[j].Session {
			return out[i].Session < out[j].Session
		}
		return out[i].Handle < out[j].Handle
	})
	return out
}

// RecordingGIF encodes a stopped recording as the GIF browser_record saves
// (recordings.Store.GIF): recordings.ErrNoRecording when the session has no
// such recording in memory.
func (h *Handler) RecordingGIF(session, handle string) ([]byte, error) {
	h.mu.Lock()
	s := h.sessions[session]
	h.mu.Unlock()
	if s == nil {
		return nil, recordings.ErrNoRecording
	}
	rs := s.recorded()
	if rs == nil {
		return nil, recordings.ErrNoRecording
	}
	return rs.GIF(handle)
}

// recorded is the session's recordings, nil before its first.
func (s *session) recorded() *recordings.Store {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.recordings
}
