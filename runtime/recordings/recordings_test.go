package recordings

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-rod/rod"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/recorder"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
)

// fake stands in for a recorder.Recorder: a state set by the test, no
// browser. The live recorder is exercised in runtime/tools (record_test.go).
type fake struct {
	mu      sync.Mutex
	state   string
	page    *rod.Page
	stops   int
	encoded int // the byte bound Encode was given
}

func (f *fake) Status() recorder.Status {
	f.mu.Lock()
	defer f.mu.Unlock()
	return recorder.Status{State: f.state, FramesKept: 3}
}

func (f *fake) Stop(context.Context, string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.stops++
	if f.state == recorder.StateRecording {
		f.state = recorder.StateStopped
	}
}

func (f *fake) Discard() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.state = recorder.StateDiscarded
}

func (f *fake) Encode(maxBytes int) (recorder.GIF, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.encoded = maxBytes
	return recorder.GIF{Data: []byte("GIF89a")}, nil
}

func (f *fake) Keep(func(uint64, uint64) bool) int { return 0 }

func (f *fake) Page() *rod.Page { return f.page }

func in(state string) *fake { return &fake{state: state} }

const replica = "r7x"

func refusedAs(t *testing.T, r *surface.Refusal, reason surface.Reason, pointer, message string) {
	t.Helper()
	if r == nil {
		t.Fatalf("no refusal; want %s %q", reason, message)
	}
	if r.Reason != reason || r.Pointer != pointer || r.Message != message {
		t.Fatalf("refusal %s %q %q; want %s %q %q", r.Reason, r.Pointer, r.Message, reason, pointer, message)
	}
}

// A handle is "rec_", the replica and a body, within the handle bound, and
// never minted twice.
func TestHandles(t *testing.T) {
	s := New("s1", replica)
	seen := map[string]bool{}
	for range 50 {
		h := s.Add(&browser.Tab{}, in(recorder.StateRecording)).Handle
		if !strings.HasPrefix(h, Prefix+replica) || len(h) != limits.HandleCharsMax {
			t.Fatalf("handle %q: want %q, the replica and %d characters in all", h, Prefix, limits.HandleCharsMax)
		}
		if seen[h] {
			t.Fatalf("handle %q minted twice", h)
		}
		seen[h] = true
	}
}

// A named handle the session never minted is refused as not its own, and
// so is another session's (each session mints under its own key).
func TestResolveUnknownAndForeign(t *testing.T) {
	mine, theirs := New("s1", replica), New("s2", replica)
	_, r := mine.Resolve(Prefix + replica + "00000000")
	refusedAs(t, r, surface.ReasonRecordingUnavailable, "/recording", language.MsgRecordingNotOurs)

	mine.Add(&browser.Tab{}, in(recorder.StateRecording))
	foreign := theirs.Add(&browser.Tab{}, in(recorder.StateRecording))
	e, r := mine.Resolve(foreign.Handle)
	if e != nil {
		t.Fatalf("resolved another session's handle %q", foreign.Handle)
	}
	refusedAs(t, r, surface.ReasonRecordingUnavailable, "/recording", language.MsgRecordingNotOurs)
	if e, r := theirs.Resolve(foreign.Handle); r != nil || e != foreign {
		t.Fatalf("its own session does not resolve %q: %v", foreign.Handle, r)
	}
}

// With no handle named, only a recording that still holds frames is meant:
// none is refused, one is taken, two must be named.
func TestResolveUnnamed(t *testing.T) {
	s := New("s1", replica)
	_, r := s.Resolve("")
	refusedAs(t, r, surface.ReasonRecordingUnavailable, "", language.MsgNoRecording)

	expired := s.Add(&browser.Tab{}, in(recorder.StateExpired))
	s.Add(&browser.Tab{}, in(recorder.StateDiscarded))
	_, r = s.Resolve("")
	refusedAs(t, r, surface.ReasonRecordingUnavailable, "", language.MsgNoRecording)

	// Named, an expired recording still resolves: status and discard
	// answer on it, the handler refuses the rest (its frames are gone).
	if e, r := s.Resolve(expired.Handle); r != nil || e != expired {
		t.Fatalf("named expired recording: %v, %v", e, r)
	}

	stopped := s.Add(&browser.Tab{}, in(recorder.StateStopped))
	if e, r := s.Resolve(""); r != nil || e != stopped {
		t.Fatalf("the one live recording: got %v, %v", e, r)
	}
	s.Add(&browser.Tab{}, in(recorder.StateRecording))
	_, r = s.Resolve("")
	refusedAs(t, r, surface.ReasonInvalidArguments, "/recording", language.RecordingsMeant(2))
}

// ActiveOn is the recording still recording the tab's current page: not a
// stopped one, not another tab's, not one of a page the tab no longer shows.
func TestActiveOn(t *testing.T) {
	s := New("s1", replica)
	tab, other := &browser.Tab{}, &browser.Tab{} // no page bound: Page() is nil
	if e := s.ActiveOn(tab); e != nil {
		t.Fatalf("empty store: %v", e)
	}
	s.Add(tab, in(recorder.StateStopped))
	s.Add(other, in(recorder.StateRecording))
	s.Add(tab, &fake{state: recorder.StateRecording, page: &rod.Page{}}) // an earlier page of the tab
	if e := s.ActiveOn(tab); e != nil {
		t.Fatalf("active on the tab: %s; none records its current page", e.Handle)
	}
	want := s.Add(tab, in(recorder.StateRecording))
	if e := s.ActiveOn(tab); e != want {
		t.Fatalf("active on the tab: %v; want %s", e, want.Handle)
	}
	want.R.Stop(context.Background(), recorder.StopRequested)
	if e := s.ActiveOn(tab); e != nil {
		t.Fatalf("a stopped recording is still active: %s", e.Handle)
	}
}

// DiscardAll erases every recording of the session, whatever its state.
func TestDiscardAll(t *testing.T) {
	s := New("s1", replica)
	var fakes []*fake
	for _, st := range []string{recorder.StateRecording, recorder.StateStopped, recorder.StateExpired} {
		f := in(st)
		fakes = append(fakes, f)
		s.Add(&browser.Tab{}, f)
	}
	s.DiscardAll()
	for i, f := range fakes {
		if f.Status().State != recorder.StateDiscarded {
			t.Errorf("recording %d: %s after DiscardAll", i, f.Status().State)
		}
	}
	if l := s.List(); len(l) != 0 {
		t.Fatalf("listed after DiscardAll: %v", l)
	}
	if _, r := s.Resolve(""); r == nil {
		t.Fatal("a discarded recording is still meant")
	}
}

// The recorder's bounds are the generated ones: a stopped recording's
// frames are kept at most the retention bound, a recording runs at most
// the duration bound, a frame's edge is half an image's.
func TestLimits(t *testing.T) {
	if Limits.Retention != time.Duration(limits.RecordRetentionMsMax)*time.Millisecond {
		t.Errorf("retention %v; want record_retention_ms_max %d ms", Limits.Retention, limits.RecordRetentionMsMax)
	}
	if Limits.MaxDuration != time.Duration(limits.RecordMsMax)*time.Millisecond {
		t.Errorf("duration %v; want record_ms_max %d ms", Limits.MaxDuration, limits.RecordMsMax)
	}
	if Limits.MaxFrames != limits.RecordFramesMax || Limits.MaxEdge != limits.ImageEdgePxMax/2 {
		t.Errorf("frames %d, edge %d; want %d, %d", Limits.MaxFrames, Limits.MaxEdge, limits.RecordFramesMax, limits.ImageEdgePxMax/2)
	}
	if Limits.CallTimeout <= 0 {
		t.Errorf("call timeout %v", Limits.CallTimeout)
	}
}

// The workbench lists what still holds frames, by handle, and replays only
// a stopped recording, within the image byte bound, changing nothing.
func TestListAndGIF(t *testing.T) {
	s := New("s1", replica)
	rec := s.Add(&browser.Tab{}, in(recorder.StateRecording))
	stopped := s.Add(&browser.Tab{}, in(recorder.StateStopped))
	expired := s.Add(&browser.Tab{}, in(recorder.StateExpired))
	l := s.List()
	var handles []string
	for _, r := range l {
		if r.Session != "s1" || r.Frames != 3 {
			t.Errorf("listed %+v", r)
		}
		handles = append(handles, r.Handle)
	}
	want := []string{rec.Handle, stopped.Handle}
	slices.Sort(want)
	if !slices.Equal(handles, want) {
		t.Fatalf("listed %v; want %v (the expired %s left out)", handles, want, expired.Handle)
	}

	for _, h := range []string{rec.Handle, expired.Handle, "rec_unknown"} {
		if _, err := s.GIF(h); err != ErrNoRecording {
			t.Errorf("GIF(%s): %v; want ErrNoRecording", h, err)
		}
	}
	if f := rec.R.(*fake); f.stops != 0 || f.state != recorder.StateRecording {
		t.Fatalf("GIF of a recording in progress changed it: %d stops, %s", f.stops, f.state)
	}
	data, err := s.GIF(stopped.Handle)
	if err != nil || string(data) != "GIF89a" {
		t.Fatalf("GIF of a stopped recording: %q, %v", data, err)
	}
	if f := stopped.R.(*fake); f.encoded != limits.ImageBytesMax {
		t.Fatalf("encoded within %d bytes; want image_bytes_max %d", f.encoded, limits.ImageBytesMax)
	}
}
