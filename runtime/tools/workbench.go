package tools

import (
	"errors"
	"sort"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/recorder"
)

// Read-only views of the handler's state for the person's workbench (wired
// by the server). Nothing here changes a session, and nothing here reaches
// the model.

// GovernedURL is a tab's URL as facts carry it: no credentials, no
// fragment, bounded.
func GovernedURL(raw string) string { return governedURL(raw) }

// Title is a page title as facts carry it: cleaned and bounded.
func Title(s string) string { return title(s) }

// Recording is one recording in memory.
type Recording struct {
	Session, Handle, Tab string
	State                string // recorder.State*
	Frames               int
	Duration             time.Duration
	RetentionLeft        time.Duration // while stopped: until its frames are erased
}

// ErrNoRecording: the session has no such recording, or its frames are gone.
var ErrNoRecording = errors.New("tools: no such recording in memory")

// Recordings lists every session's recordings that still hold frames.
func (h *Handler) Recordings() []Recording {
	h.mu.Lock()
	sessions := make(map[string]*session, len(h.sessions))
	for id, s := range h.sessions {
		sessions[id] = s
	}
	h.mu.Unlock()
	var out []Recording
	for id, s := range sessions {
		s.mu.Lock()
		rs := s.recordings
		s.mu.Unlock()
		if rs == nil {
			continue
		}
		rs.mu.Lock()
		for _, rec := range rs.byID {
			st := rec.r.Status()
			if !live(st.State) {
				continue
			}
			out = append(out, Recording{Session: id, Handle: rec.handle, Tab: rec.tab.Handle(), State: st.State,
				Frames: st.FramesKept, Duration: st.Duration, RetentionLeft: st.RetentionLeft})
		}
		rs.mu.Unlock()
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
// (in memory, within the image byte bound). It changes nothing: a recording
// still recording is refused, not stopped.
func (h *Handler) RecordingGIF(session, handle string) ([]byte, error) {
	h.mu.Lock()
	s := h.sessions[session]
	h.mu.Unlock()
	if s == nil {
		return nil, ErrNoRecording
	}
	s.mu.Lock()
	rs := s.recordings
	s.mu.Unlock()
	if rs == nil {
		return nil, ErrNoRecording
	}
	rs.mu.Lock()
	rec := rs.byID[handle]
	rs.mu.Unlock()
	if rec == nil || rec.r.Status().State != recorder.StateStopped {
		return nil, ErrNoRecording
	}
	g, err := rec.r.Encode(surface.ImageBytesMax)
	if err != nil {
		return nil, err
	}
	return g.Data, nil
}
