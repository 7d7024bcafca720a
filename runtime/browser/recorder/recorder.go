// Package recorder records one page's screencast into memory and encodes it
// as a GIF. It knows nothing of MCP or governance: callers pass their bounds
// as Limits. Frames and encoded bytes live only in memory; nothing here
// writes a file, a log line or an audit record.
package recorder

import (
	"bytes"
	"context"
	"errors"
	"sync"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// States of a recording.
const (
	StateRecording = "recording"
	StateStopped   = "stopped"
	StateDiscarded = "discarded"
	StateExpired   = "expired"
)

// Stop reasons.
const (
	StopRequested = "requested"  // stop was asked for
	StopSaved     = "saved"      // save stopped an active recording
	StopTimeLimit = "time_limit" // the recording reached Limits.MaxDuration
	StopPageGone  = "page_gone"  // the page went away
)

// ErrUnavailable is returned when the frames are gone (discarded, expired or
// never captured).
var ErrUnavailable = errors.New("recorder: the recording is no longer available")

// Limits bound a recording.
type Limits struct {
	MaxDuration time.Duration // auto-stop after this long
	Retention   time.Duration // frames are erased this long after the stop
	MaxFrames   int           // frames kept in memory
	MaxEdge     int           // longest edge of a frame, px
	// CallTimeout bounds the browser calls the recorder makes on its own
	// (the auto-stop, stopping a discarded screencast).
	CallTimeout time.Duration
}

// Withheld reports, frame by frame, that what the page shows now is not
// to be kept: the person typed a credential into it (a card number or a
// one-time code renders in plain sight). nil keeps every frame.
type Withheld func() bool

// Tag stamps each frame as it arrives with what its owner needs to judge it
// once more before it leaves (Keep): a typed secret the page may show later
// is only known to be on screen once the page is read. nil stamps 0.
type Tag func() uint64

type frame struct {
	data []byte // JPEG as Chromium sent it
	at   time.Time
	tag  uint64
	prev uint64 // the tag of the frame that arrived before it (0 first)
}

// Recorder holds one page's screencast frames.
type Recorder struct {
	page *rod.Page
	lim  Limits
	held Withheld
	tag  Tag
	gap  time.Duration // minimum spacing of kept frames; doubles when full
	stop context.CancelFunc
	done chan struct{}

	mu         sync.Mutex
	state      string
	frames     []frame
	pending    *frame // newest frame not yet kept (it arrived inside gap)
	captured   int
	lastTag    uint64 // the tag of the newest frame that arrived
	started    time.Time
	stopped    time.Time
	stopReason string
	autoStop   *time.Timer
	expire     *time.Timer
}

// Start begins a screencast of page. The subscription lives under the
// page's own context; ctx bounds only the setup calls.
func Start(ctx context.Context, page *rod.Page, lim Limits, held Withheld) (*Recorder, error) {
	return StartTagged(ctx, page, lim, held, nil)
}

// StartTagged is Start with each frame stamped by tag.
func StartTagged(ctx context.Context, page *rod.Page, lim Limits, held Withheld, tag Tag) (*Recorder, error) {
	if lim.MaxFrames < 2 {
		lim.MaxFrames = 2
	}
	r := &Recorder{page: page, lim: lim, held: held, tag: tag, state: StateRecording, done: make(chan struct{}), started: time.Now()}
	// The screencast paints its first frame after it starts: what the owner
	// stamps now is what came before it.
	r.lastTag = r.stamp()
	// Sample so that a recording of the longest duration just fits the
	// frame bound; the GIF cannot show delays below 10 ms anyway.
	r.gap = lim.MaxDuration / time.Duration(lim.MaxFrames)
	sub, stop := context.WithCancel(page.GetContext())
	r.stop = stop
	p := page.Context(sub)
	wait := p.EachEvent(func(e *proto.PageScreencastFrame) {
		_ = proto.PageScreencastFrameAck{SessionID: e.SessionID}.Call(p)
		r.add(e.Data)
	})
	go func() {
		defer close(r.done)
		wait()
		r.mu.Lock()
		gone := r.state == StateRecording
		r.mu.Unlock()
		if gone {
			r.finish(StopPageGone)
		}
	}()
	q := 80
	edge := lim.MaxEdge
	err := proto.PageStartScreencast{Format: proto.PageStartScreencastFormatJpeg, Quality: &q, MaxWidth: &edge, MaxHeight: &edge}.Call(page.Context(ctx))
	if err != nil {
		r.stop()
		<-r.done
		return nil, err
	}
	r.mu.Lock()
	r.autoStop = time.AfterFunc(lim.MaxDuration, func() {
		ctx, cancel := context.WithTimeout(context.Background(), lim.CallTimeout)
		defer cancel()
		r.Stop(ctx, StopTimeLimit)
	})
	r.mu.Unlock()
	return r, nil
}

// add keeps one frame: a duplicate of the last kept frame is merged into it,
// a frame inside the sampling gap waits as pending (a newer one replaces
// it), and a full buffer is thinned to every other frame with the gap
// doubled, so the replay always spans the whole recording.
func (r *Recorder) add(data []byte) {
	now := time.Now()
	if r.withheld() {
		return // the frame is dropped as it arrives: never kept, never encoded
	}
	tag := r.stamp()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.state != StateRecording {
		return
	}
	r.captured++
	prev := r.lastTag
	r.lastTag = tag
	r.keep(frame{data: data, at: now, tag: tag, prev: prev})
}

func (r *Recorder) keep(f frame) {
	if n := len(r.frames); n > 0 {
		last := r.frames[n-1]
		if bytes.Equal(last.data, f.data) {
			r.pending = nil
			return
		}
		if f.at.Sub(last.at) < r.gap {
			r.pending = &f
			return
		}
	}
	r.pending = nil
	if len(r.frames) >= r.lim.MaxFrames {
		thin := r.frames[:0]
		for i := range r.frames {
			if i%2 == 0 {
				thin = append(thin, r.frames[i])
			}
		}
		clear(r.frames[len(thin):])
		r.frames = thin
		r.gap *= 2
	}
	r.frames = append(r.frames, f)
}

// Stop captures a final frame, stops the screencast and freezes the
// recording; a stopped recording is left as it is.
func (r *Recorder) Stop(ctx context.Context, reason string) {
	r.mu.Lock()
	if r.state != StateRecording {
		r.mu.Unlock()
		return
	}
	r.mu.Unlock()
	if r.withheld() {
		// no final frame of a page holding the person's credential
	} else if final, err := r.finalFrame(ctx); err == nil {
		tag := r.stamp()
		r.mu.Lock()
		if r.state == StateRecording {
			r.captured++
			// Taken now, not sent ahead: it shows what its tag says.
			r.keep(frame{data: final, at: time.Now(), tag: tag, prev: tag})
		}
		r.mu.Unlock()
	}
	_ = proto.PageStopScreencast{}.Call(r.page.Context(ctx))
	r.finish(reason)
}

// finish freezes the recording and arms its retention.
func (r *Recorder) finish(reason string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.state != StateRecording {
		return
	}
	if r.pending != nil {
		if len(r.frames) >= r.lim.MaxFrames {
			r.frames[len(r.frames)-1] = *r.pending
		} else {
			r.frames = append(r.frames, *r.pending)
		}
		r.pending = nil
	}
	r.state, r.stopReason, r.stopped = StateStopped, reason, time.Now()
	if r.autoStop != nil {
		r.autoStop.Stop()
	}
	r.expire = time.AfterFunc(r.lim.Retention, func() { r.erase(StateExpired) })
	go r.stop()
}

// withheld asks Withheld outside r.mu (it takes its owner's locks).
func (r *Recorder) withheld() bool { return r.held != nil && r.held() }

// stamp asks Tag outside r.mu, as withheld does.
func (r *Recorder) stamp() uint64 {
	if r.tag == nil {
		return 0
	}
	return r.tag()
}

// Keep erases, for good, the stopped recording's frames keep refuses, and
// reports how many went. keep sees each frame's tag and the tag of the frame
// that arrived before it: a screencast frame is painted before it is stamped,
// so the first frame after the owner's state changed may still show the
// state before. A recording still running keeps everything (its owner stops
// it first).
func (r *Recorder) Keep(keep func(tag, prev uint64) bool) (dropped int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.state != StateStopped {
		return 0
	}
	kept := r.frames[:0]
	for _, f := range r.frames {
		if keep(f.tag, f.prev) {
			kept = append(kept, f)
		} else {
			dropped++
		}
	}
	clear(r.frames[len(kept):])
	r.frames = kept
	return dropped
}

// finalFrame captures the viewport now as a JPEG no larger than the
// screencast's frames: a page that does not repaint sends no frame.
func (r *Recorder) finalFrame(ctx context.Context) ([]byte, error) {
	p := r.page.Context(ctx)
	m, err := proto.PageGetLayoutMetrics{}.Call(p)
	if err != nil || m.CSSVisualViewport == nil {
		return nil, errors.New("recorder: no layout metrics")
	}
	vv := m.CSSVisualViewport
	w, h := vv.ClientWidth, vv.ClientHeight
	if w <= 0 || h <= 0 {
		return nil, errors.New("recorder: empty viewport")
	}
	scale := 1.0
	if edge := float64(r.lim.MaxEdge); w > edge || h > edge {
		scale = min(edge/w, edge/h)
	}
	q := 80
	res, err := proto.PageCaptureScreenshot{Format: proto.PageCaptureScreenshotFormatJpeg, Quality: &q,
		Clip: &proto.PageViewport{X: vv.PageX, Y: vv.PageY, Width: w, Height: h, Scale: scale}}.Call(p)
	if err != nil {
		return nil, err
	}
	return res.Data, nil
}

// erase drops the frames for good.
func (r *Recorder) erase(state string) {
	r.mu.Lock()
	if r.state == StateDiscarded || r.state == StateExpired {
		r.mu.Unlock()
		return
	}
	recording := r.state == StateRecording
	r.state, r.frames, r.pending = state, nil, nil
	if r.autoStop != nil {
		r.autoStop.Stop()
	}
	if r.expire != nil {
		r.expire.Stop()
	}
	if r.stopped.IsZero() {
		r.stopped = time.Now()
	}
	r.mu.Unlock()
	if recording {
		ctx, cancel := context.WithTimeout(context.Background(), r.lim.CallTimeout)
		_ = proto.PageStopScreencast{}.Call(r.page.Context(ctx))
		cancel()
	}
	r.stop()
}

// Discard erases the frames now.
func (r *Recorder) Discard() { r.erase(StateDiscarded) }

// Status is a recording's state.
type Status struct {
	State          string
	StopReason     string
	StopDeadline   time.Duration // while recording: time until auto-stop
	RetentionLeft  time.Duration // while stopped: time until erased
	FramesKept     int
	FramesCaptured int
	Duration       time.Duration // recorded so far, or in all
}

// Status reports the recording's state and deadlines.
func (r *Recorder) Status() Status {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := time.Now()
	s := Status{State: r.state, StopReason: r.stopReason, FramesKept: len(r.frames), FramesCaptured: r.captured}
	switch r.state {
	case StateRecording:
		s.StopDeadline = max(0, r.lim.MaxDuration-now.Sub(r.started))
		s.Duration = now.Sub(r.started)
	case StateStopped:
		left := r.lim.Retention - now.Sub(r.stopped)
		if left <= 0 {
			// The timer is about to fire: the frames are as good as gone.
			s.State = StateExpired
			break
		}
		s.RetentionLeft = left
		s.Duration = r.stopped.Sub(r.started)
	}
	return s
}

// Page is the recorded page.
func (r *Recorder) Page() *rod.Page { return r.page }

// snapshot copies the frame list (not the bytes) and the end time.
func (r *Recorder) snapshot() ([]frame, time.Time, time.Time, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.state != StateStopped || len(r.frames) == 0 || time.Since(r.stopped) >= r.lim.Retention {
		return nil, time.Time{}, time.Time{}, ErrUnavailable
	}
	return append([]frame(nil), r.frames...), r.started, r.stopped, nil
}
