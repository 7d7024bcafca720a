// Package live is the person's live view of one tab: a screencast on a
// DevTools session of its own (browser.Tab.SidePage), bounded in frame rate
// and size, and the person's own input sent straight to the page over the
// same session. It knows nothing of MCP, governance or the workbench that
// shows it: callers pass their bounds as Limits. Frames live in memory only,
// one at a time; nothing here writes a file, a log line or an audit record,
// and no input it sends is recorded anywhere.
package live

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image/jpeg"
	"math"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/input"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/pagejs"
)

// Limits bound a live view.
type Limits struct {
	MaxEdge int           // longest edge of a frame, px
	Quality int           // JPEG quality
	MinGap  time.Duration // shortest time between two frames; acknowledgements wait for it
	MaxText int           // characters of one Text input
	// CallTimeout bounds the calls the view makes on its own (stopping the
	// screencast when it ends).
	CallTimeout time.Duration
	// FieldRead bounds one read of a credential field's value
	// (FocusedField); 0 = CallTimeout.
	FieldRead time.Duration
}

// Frame is one screencast image as Chromium sent it.
type Frame struct {
	Seq           uint64 // 1, 2, … in arrival order
	JPEG          []byte
	Width, Height int       // image pixels
	At            time.Time // when the view handed it on
}

// ErrClosed is returned by input on a view that ended.
var ErrClosed = errors.New("live: the view has ended")

// View is one tab's live view.
type View struct {
	page   *rod.Page
	detach func()
	lim    Limits
	out    chan Frame // capacity 1: a slow reader gets the newest frame
	stop   context.CancelFunc
	done   chan struct{}

	mu     sync.Mutex
	latest []byte
	unack  []int // screencast frames not yet acknowledged
	seq    uint64
	wake   chan struct{}
	closed bool
}

// Start begins the screencast of page, a side session (browser.Tab.SidePage)
// that detach ends. Chromium sends a frame when the page repaints and waits
// for its acknowledgement before sending more than two; acknowledging no
// sooner than MinGap after the previous frame bounds the rate by
// construction, and frames that arrive inside the gap collapse into the
// newest. ctx bounds only the setup.
func Start(ctx context.Context, page *rod.Page, detach func(), lim Limits) (*View, error) {
	if page == nil {
		return nil, errors.New("live: nil page")
	}
	if lim.MaxEdge <= 0 || lim.Quality <= 0 || lim.CallTimeout <= 0 {
		return nil, errors.New("live: limits not set")
	}
	sub, stop := context.WithCancel(page.GetContext())
	v := &View{page: page.Context(sub), detach: detach, lim: lim, out: make(chan Frame, 1), stop: stop,
		done: make(chan struct{}), wake: make(chan struct{}, 1)}
	wait := v.page.EachEvent(func(e *proto.PageScreencastFrame) {
		v.mu.Lock()
		v.latest = e.Data
		v.unack = append(v.unack, e.SessionID)
		v.mu.Unlock()
		select {
		case v.wake <- struct{}{}:
		default:
		}
	})
	go func() {
		wait()
		v.Close()
	}()
	go v.pump(sub)
	q, edge := lim.Quality, lim.MaxEdge
	err := proto.PageStartScreencast{Format: proto.PageStartScreencastFormatJpeg, Quality: &q, MaxWidth: &edge, MaxHeight: &edge}.Call(page.Context(ctx))
	if err != nil {
		v.Close()
		return nil, err
	}
	return v, nil
}

// pump hands the newest frame to the reader, acknowledges what arrived, then
// waits out the gap.
func (v *View) pump(ctx context.Context) {
	defer close(v.done)
	defer close(v.out)
	gap := time.NewTimer(0)
	defer gap.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-v.wake:
		}
		v.mu.Lock()
		data, acks := v.latest, v.unack
		v.latest, v.unack = nil, nil
		if data != nil {
			v.seq++
		}
		seq := v.seq
		v.mu.Unlock()
		if data != nil {
			f := Frame{Seq: seq, JPEG: data, At: time.Now()}
			if c, err := jpeg.DecodeConfig(bytes.NewReader(data)); err == nil {
				f.Width, f.Height = c.Width, c.Height
			}
			select { // replace an unread frame with the newer one
			case <-v.out:
			default:
			}
			v.out <- f
		}
		for _, id := range acks {
			_ = proto.PageScreencastFrameAck{SessionID: id}.Call(v.page)
		}
		gap.Reset(v.lim.MinGap)
		select {
		case <-ctx.Done():
			return
		case <-gap.C:
		}
	}
}

// Frames delivers frames until the view ends (then it is closed).
func (v *View) Frames() <-chan Frame { return v.out }

// Done is closed once the view has ended (Close, or the tab or browser went away).
func (v *View) Done() <-chan struct{} { return v.done }

// Close stops the screencast and detaches the side session. Safe to call
// more than once.
func (v *View) Close() {
	v.mu.Lock()
	if v.closed {
		v.mu.Unlock()
		return
	}
	v.closed = true
	v.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), v.lim.CallTimeout)
	_ = proto.PageStopScreencast{}.Call(v.page.Context(ctx))
	cancel()
	v.stop()
	if v.detach != nil {
		v.detach()
	}
}

func (v *View) live() error {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.closed {
		return ErrClosed
	}
	return nil
}

// point turns a position given as fractions of the frame (0..1 across, 0..1
// down) into CSS pixels of the viewport the screencast shows.
func (v *View) point(ctx context.Context, fx, fy float64) (input.Point, error) {
	if !fraction(fx) || !fraction(fy) {
		return input.Point{}, fmt.Errorf("live: position %v,%v is outside the frame", fx, fy)
	}
	m, err := proto.PageGetLayoutMetrics{}.Call(v.page.Context(ctx))
	if err != nil {
		return input.Point{}, err
	}
	vv := m.CSSVisualViewport
	if vv == nil || vv.ClientWidth <= 0 || vv.ClientHeight <= 0 {
		return input.Point{}, errors.New("live: the page has no viewport")
	}
	return input.Point{X: fx * vv.ClientWidth, Y: fy * vv.ClientHeight}, nil
}

func fraction(f float64) bool { return !math.IsNaN(f) && f >= 0 && f <= 1 }

// Click presses and releases button ("primary", "middle", "secondary")
// count times at a position of the frame.
func (v *View) Click(ctx context.Context, fx, fy float64, button string, count int) error {
	if err := v.live(); err != nil {
		return err
	}
	pt, err := v.point(ctx, fx, fy)
	if err != nil {
		return err
	}
	_, err = input.Click(ctx, v.page, pt, button, count)
	return err
}

// Wheel scrolls by dx, dy CSS px at a position of the frame.
func (v *View) Wheel(ctx context.Context, fx, fy, dx, dy float64) error {
	if err := v.live(); err != nil {
		return err
	}
	pt, err := v.point(ctx, fx, fy)
	if err != nil {
		return err
	}
	_, err = input.Wheel(ctx, v.page, pt, dx, dy)
	return err
}

// Key presses one key, a named key of the contract's table (Enter,
// Backspace, ArrowLeft, …) or one character, holding modifiers ("Alt",
// "Control", "Meta", "Shift").
func (v *View) Key(ctx context.Context, key string, modifiers []string) error {
	if err := v.live(); err != nil {
		return err
	}
	k, ok := KeyOf(key)
	if !ok {
		return fmt.Errorf("live: %q is neither a named key nor one character", key)
	}
	_, err := input.PressKey(ctx, v.page, k, modifiers, 1)
	return err
}

// Text types text as the keyboard would (characters off the US layout are
// inserted as text).
func (v *View) Text(ctx context.Context, text string) error {
	if err := v.live(); err != nil {
		return err
	}
	if n := utf8.RuneCountInString(text); n > v.lim.MaxText || !utf8.ValidString(text) {
		return fmt.Errorf("live: text longer than %d characters or not UTF-8", v.lim.MaxText)
	}
	_, _, err := input.TypeText(ctx, v.page, text)
	return err
}

// FocusedCredential is the credential class (spec/credentials.cue) of the
// element the view's keys reach now, "" when it is none; frames lists the
// tab's cross-origin frames. The caller asks before sending the person's
// keys, to know that the page then holds a credential of theirs.
func (v *View) FocusedCredential(ctx context.Context, frames pagejs.FrameSource) (string, error) {
	if err := v.live(); err != nil {
		return "", err
	}
	rc, err := input.FocusedReceiver(ctx, v.page, frames)
	return rc.Credential, err
}

// Field is the credential field the view's keys reach (FocusedField).
type Field struct {
	// ID names the element within its document: two reads of the same
	// field answer the same ID, another field (or a new document) another.
	ID string
	// Value is what the field holds, in characters; the caller owns it and
	// clears it once used.
	Value []rune
	// Start and End are the selection in characters of Value (Start == End:
	// the caret); -1 when unknown.
	Start, End int
}

// ErrNoField is returned by FocusedField when the element the keys reach
// is no credential field.
var ErrNoField = errors.New("live: the keys reach no credential field")

// FocusedField reads the credential field the view's keys reach now: the
// focused element, found as FocusedCredential finds it, read in an
// isolated world the page's code can neither see nor answer for
// (input.FocusedField). frames lists the tab's cross-origin frames. The
// caller asks after sending the person's key, to learn what the field holds
// now, whatever the key, the caret or the page made of it. The read is
// bounded by Limits.FieldRead.
func (v *View) FocusedField(ctx context.Context, frames pagejs.FrameSource) (Field, error) {
	if err := v.live(); err != nil {
		return Field{}, err
	}
	d := v.lim.FieldRead
	if d <= 0 {
		d = v.lim.CallTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	f, err := input.FocusedField(ctx, v.page, frames)
	if err != nil {
		return Field{}, err
	}
	if f.Credential == "" {
		return Field{}, ErrNoField
	}
	return Field{ID: f.ID, Value: f.Value, Start: f.Start, End: f.End}, nil
}

// KeyOf is what a key name dispatches: a named key of the contract's table,
// or one printable character.
func KeyOf(name string) (input.KeyDef, bool) {
	if nk, ok := surface.NamedKeys[name]; ok {
		k := input.KeyDef{Key: name, Code: nk.Code, KeyCode: nk.KeyCode, Text: nk.Text}
		if r, n := utf8.DecodeRuneInString(nk.Text); n > 0 && n == len(nk.Text) && unicode.IsPrint(r) {
			k.Key = nk.Text
		}
		return k, true
	}
	r, n := utf8.DecodeRuneInString(name)
	if n == 0 || n != len(name) || !unicode.IsPrint(r) {
		return input.KeyDef{}, false
	}
	return input.CharKey(r), true
}
