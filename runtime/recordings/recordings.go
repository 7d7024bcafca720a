package recordings

import (
	"context"
	"errors"
	"sort"
	"sync"
	"time"

	"github.com/go-rod/rod"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/recorder"
	"github.com/ghostlight-dev/ghostlight/runtime/handle"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
)

// Prefix starts a recording handle.
const Prefix = surface.HandlePrefixRecording + "_"

// edge is the longest edge of a recorded frame: half the edge of a
// returned image, so a replay of the longest recording stays near the image
// byte bound without being scaled again.
const edge = limits.ImageEdgePxMax / 2

// Limits are the recorder's bounds, all from generated constants.
var Limits = recorder.Limits{
	MaxDuration: time.Duration(limits.RecordMsMax) * time.Millisecond,
	Retention:   time.Duration(limits.RecordRetentionMsMax) * time.Millisecond,
	MaxFrames:   limits.RecordFramesMax,
	MaxEdge:     edge,
	CallTimeout: time.Duration(limits.TimeoutMsDefault) * time.Millisecond,
}

// A recording handle is "rec_", the replica's name and eight base62 characters: the session's
// recording number under its own key (runtime/handle).
const body = limits.HandleCharsMax - len(surface.HandlePrefixRecording) - 1 - handle.ReplicaChars

// Recorder is what the store holds of one recording's frames: a
// *recorder.Recorder, or a stand-in in the store's tests (no browser).
type Recorder interface {
	Status() recorder.Status
	Stop(ctx context.Context, reason string)
	Discard()
	Encode(maxBytes int) (recorder.GIF, error)
	// Keep erases a stopped recording's frames whose tag keep refuses.
	Keep(keep func(tag, prev uint64) bool) (dropped int)
	Page() *rod.Page // the recorded page
}

var _ Recorder = (*recorder.Recorder)(nil)

// Entry is one recording of the session: its handle, the tab it records
// and its recorder.
type Entry struct {
	Handle string
	Tab    *browser.Tab
	R      Recorder
}

// Store is one session's recordings, by handle.
type Store struct {
	session string
	mu      sync.Mutex
	seq     int
	byID    map[string]*Entry
	codec   *handle.Codec // the session's key for recording handles
}

// New is the store of the session, minting handles tagged with the
// replica's name.
func New(session, replica string) *Store {
	return &Store{session: session, byID: map[string]*Entry{}, codec: handle.NewTagged(body, replica)}
}

// Live reports whether a recording in this state still holds (or gathers)
// frames.
func Live(state string) bool {
	return state == recorder.StateRecording || state == recorder.StateStopped
}

// Add keeps a recording just started on the tab under a new handle.
func (s *Store) Add(t *browser.Tab, r Recorder) *Entry {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	e := &Entry{Handle: Prefix + s.codec.Encode(uint64(s.seq)), Tab: t, R: r}
	s.byID[e.Handle] = e
	return e
}

// Resolve finds the named recording, or the only live one when none is named.
func (s *Store) Resolve(handle string) (*Entry, *surface.Refusal) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if handle != "" {
		if e := s.byID[handle]; e != nil {
			return e, nil
		}
		return nil, &surface.Refusal{Reason: surface.ReasonRecordingUnavailable, Pointer: "/recording", Message: language.MsgRecordingNotOurs}
	}
	var found []*Entry
	for _, e := range s.byID {
		if Live(e.R.Status().State) {
			found = append(found, e)
		}
	}
	switch len(found) {
	case 0:
		return nil, &surface.Refusal{Reason: surface.ReasonRecordingUnavailable, Message: language.MsgNoRecording}
	case 1:
		return found[0], nil
	}
	return nil, &surface.Refusal{Reason: surface.ReasonInvalidArguments, Pointer: "/recording",
		Message: language.RecordingsMeant(len(found))}
}

// ActiveOn is the recording currently recording the tab's page, if any.
func (s *Store) ActiveOn(t *browser.Tab) *Entry {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, e := range s.byID {
		if e.Tab == t && e.R.Page() == t.Page() && e.R.Status().State == recorder.StateRecording {
			return e
		}
	}
	return nil
}

// DiscardAll erases every recording of a session that ends.
func (s *Store) DiscardAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, e := range s.byID {
		e.R.Discard()
	}
}

// Recording is one recording in memory, as the workbench lists it.
type Recording struct {
	Session, Handle, Tab string
	State                string // recorder.State*
	Frames               int
	Duration             time.Duration
	RetentionLeft        time.Duration // while stopped: until its frames are erased
}

// ErrNoRecording: the session has no such recording, or its frames are gone.
var ErrNoRecording = errors.New("recordings: no such recording in memory")

// List is the session's recordings that still hold frames, by handle.
func (s *Store) List() []Recording {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Recording
	for _, e := range s.byID {
		st := e.R.Status()
		if !Live(st.State) {
			continue
		}
		out = append(out, Recording{Session: s.session, Handle: e.Handle, Tab: e.Tab.Handle(), State: st.State,
			Frames: st.FramesKept, Duration: st.Duration, RetentionLeft: st.RetentionLeft})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Handle < out[j].Handle })
	return out
}

// GIF encodes a stopped recording as the GIF browser_record saves (in
// memory, within the image byte bound). It changes nothing: a recording
// still recording is refused (ErrNoRecording), not stopped.
func (s *Store) GIF(handle string) ([]byte, error) {
	s.mu.Lock()
	e := s.byID[handle]
	s.mu.Unlock()
	if e == nil || e.R.Status().State != recorder.StateStopped {
		return nil, ErrNoRecording
	}
	g, err := e.R.Encode(limits.ImageBytesMax)
	if err != nil {
		return nil, err
	}
	return g.Data, nil
}
