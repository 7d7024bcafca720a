package pagejs

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/actionable"
)

// The actionability loop: sample the target once per animation frame and let
// actionable.Decide say act, wait or refuse. The first sample that passes every
// check still waits one frame, to see the box hold still; that frame is the
// whole cost of the common case.

var (
	actionReserve = time.Duration(limits.ActionableReserveMsMax) * time.Millisecond
)

// actSample is the page's look at a target (js/actionable.js): a Point when
// the target can take the action, else which checks failed.
type actSample struct {
	Point
	Visible   bool   `json:"vis"`
	Enabled   bool   `json:"en"`
	Hit       bool   `json:"hit"`
	Anim      bool   `json:"anim"` // an animation over the point is still running (animatingOver)
	CoverRole string `json:"coverRole"`
	CoverName string `json:"coverName"`
	BoxPtr    *Box   `json:"box"`
}

// ActionDeadline is when waiting for a target must give up so the refusal
// still goes out within the call's own deadline: the context's deadline less
// actionable_reserve_ms (at most half of what is left).
func ActionDeadline(ctx context.Context) time.Time {
	now := time.Now()
	d, ok := ctx.Deadline()
	if !ok {
		return now.Add(time.Duration(limits.TimeoutMsDefault) * time.Millisecond)
	}
	reserve := actionReserve
	if left := d.Sub(now); left/2 < reserve {
		reserve = left / 2
	}
	return d.Add(-reserve)
}

// AwaitActionable locates the element the way LocateWith does, but waits,
// one animation frame at a time until deadline, for it to be attached,
// visible, enabled (unless opt.AllowDisabled), stable across two frames and
// topmost at the point (unless opt.AllowObscured). The refusal at the
// deadline names the failed condition: KindHidden, KindDisabled, KindObscured
// (with the cover's role and name), KindUnstable; a removed element answers
// KindStale at once.
func AwaitActionable(ctx context.Context, w *World, id int, opt LocateOptions, deadline time.Time) (Point, error) {
	ps, err := AwaitAllActionable(ctx, w, []int{id}, opt, deadline)
	if err != nil {
		return Point{}, err
	}
	return ps[0], nil
}

// ActionableError is the refusal of one element of AwaitAllActionable.
type ActionableError struct {
	Index int // into the ids given
	Err   error
}

func (e *ActionableError) Error() string { return e.Err.Error() }
func (e *ActionableError) Unwrap() error { return e.Err }

// AwaitAllActionable is AwaitActionable for several elements at once (a
// form's fields): each frame samples every element not yet ready, so the
// common case costs one frame in all, not one per element. A refusal is an
// *ActionableError naming the element's index.
func AwaitAllActionable(ctx context.Context, w *World, ids []int, opt LocateOptions, deadline time.Time) ([]Point, error) {
	type track struct {
		hist     []actionable.Sample
		last     actSample
		scrolled bool
		done     bool
	}
	tr := make([]track, len(ids))
	out := make([]Point, len(ids))
	left := len(ids)
	start := time.Now()
	// One element of the main document (a click's target) is looked at in
	// one round trip per frame: the first takes a look, waits for the next
	// frame and looks again (lookLocal). Several, or one in a frame, are
	// looked at in turn, then the next frame is awaited.
	paired := len(ids) == 1 && w.Local(ids[0])
	for frame := 0; ; frame++ {
		for i, id := range ids {
			k := &tr[i]
			if k.done {
				continue
			}
			var looks []actSample
			var err error
			if paired {
				looks, err = w.lookLocal(ctx, id, opt, frame == 0)
			} else {
				var s actSample
				s, err = w.sampleTarget(ctx, id, opt, frame == 0)
				looks = []actSample{s}
			}
			if err != nil {
				return nil, &ActionableError{Index: i, Err: err}
			}
			var v actionable.Verdict
			var f actionable.Failure
			for j, s := range looks {
				k.scrolled = k.scrolled || s.Scrolled
				k.last = s
				k.hist = append(k.hist, actionable.Sample{Frame: frame + j, Attached: true, Visible: s.Visible, Enabled: s.Enabled, Hit: s.Hit, Animating: s.Anim,
					Box: actionable.Box{X: s.Box.X, Y: s.Box.Y, Width: s.Box.Width, Height: s.Box.Height}})
				if len(k.hist) > limits.ActionableSamplesMax {
					k.hist = k.hist[len(k.hist)-limits.ActionableSamplesMax:]
				}
				if v, f = actionable.Decide(k.hist, time.Now(), deadline); v != actionable.Wait {
					break
				}
			}
			switch v {
			case actionable.Act:
				out[i] = k.last.Point
				out[i].Scrolled = k.scrolled
				k.done = true
				left--
			case actionable.Refuse:
				return nil, &ActionableError{Index: i, Err: refusal(f, k.last, time.Since(start))}
			}
		}
		if left == 0 {
			return out, nil
		}
		if paired {
			if frame == 0 {
				frame++ // the first round trip took two frames' looks
			}
			continue
		}
		if err := w.AwaitFrame(ctx); err != nil {
			return nil, err
		}
	}
}

// lookLocal looks at a main-document element in one round trip: with first,
// a look now, then one in the next animation frame; otherwise only the one
// in the next frame (or after actionable_frame_wait_ms where frames do not
// run).
func (w *World) lookLocal(ctx context.Context, id int, opt LocateOptions, first bool) ([]actSample, error) {
	l := w.Limits()
	req := struct {
		LocateOptions
		ID                     int      `json:"id"`
		First                  bool     `json:"first"`
		NameMax                int      `json:"nameMax"`
		CredentialAutocomplete []string `json:"credentialAutocomplete"`
	}{opt, id, first, l.NameMax, l.CredentialAutocomplete}
	raw, err := w.callAwait(ctx, lookJS, req, limits.ActionableFrameWaitMsMax)
	if err != nil {
		return nil, err
	}
	var envs []json.RawMessage
	if err := json.Unmarshal(raw, &envs); err != nil {
		return nil, &Error{Kind: KindInternal, Op: "actSample", Detail: "undecodable page reply", Err: err}
	}
	out := make([]actSample, len(envs))
	for i, e := range envs {
		if err := decodeEnvelope("actSample", e, &out[i]); err != nil {
			return nil, err
		}
		if out[i].BoxPtr != nil {
			out[i].Box = *out[i].BoxPtr
		}
	}
	return out, nil
}

// lookJS: [look now (first only), look in the next frame], as envelopes.
const lookJS = `function(a, ms){var api=this;var now=a.first?[api.actSample(a)]:[];var b=Object.assign({},a,{first:false});` +
	`return new Promise(function(r){var d=false;var f=function(){if(!d){d=true;now.push(api.actSample(b));r(now)}};requestAnimationFrame(f);setTimeout(f,ms)})}`

// AwaitPointStable waits until the element at top-viewport point (x, y) in
// CSS px is the same element with the same box two frames running (a view
// point's target must not move under the press). Past deadline it answers
// KindUnstable.
func AwaitPointStable(ctx context.Context, w *World, x, y float64, deadline time.Time) error {
	var hist []actionable.Sample
	start := time.Now()
	for frame := 0; ; frame++ {
		var s struct {
			Key int  `json:"key"`
			Box *Box `json:"box"`
		}
		if err := w.invokeLocal(ctx, "pointSample", mustJSON(map[string]float64{"x": x, "y": y}), &s); err != nil {
			return err
		}
		var b Box
		if s.Box != nil {
			b = *s.Box
		}
		hist = append(hist, actionable.Sample{Frame: frame, Attached: true, Visible: true, Enabled: true, Hit: true, Key: s.Key,
			Box: actionable.Box{X: b.X, Y: b.Y, Width: b.Width, Height: b.Height}})
		if len(hist) > limits.ActionableSamplesMax {
			hist = hist[len(hist)-limits.ActionableSamplesMax:]
		}
		switch v, f := actionable.Decide(hist, time.Now(), deadline); v {
		case actionable.Act:
			return nil
		case actionable.Refuse:
			return refusal(f, actSample{}, time.Since(start))
		}
		if err := w.AwaitFrame(ctx); err != nil {
			return err
		}
	}
}

// sampleTarget takes one look. An element of a cross-origin frame is looked
// at through LocateWith (its point moved into the top viewport), whose
// refusals become the failed checks.
func (w *World) sampleTarget(ctx context.Context, id int, opt LocateOptions, first bool) (actSample, error) {
	if !w.Local(id) {
		p, err := LocateWith(ctx, w, id, opt)
		s := actSample{Point: p, Visible: true, Enabled: true, Hit: true}
		var pe *Error
		if err == nil || !errors.As(err, &pe) {
			return s, err
		}
		switch pe.Kind {
		case KindHidden:
			s.Visible = false
		case KindDisabled:
			s.Enabled = false
		case KindObscured:
			s.Hit, s.CoverRole, s.CoverName = false, pe.Role, pe.Name
		default:
			return s, err
		}
		return s, nil
	}
	l := w.Limits()
	req := struct {
		LocateOptions
		ID                     int      `json:"id"`
		First                  bool     `json:"first"`
		NameMax                int      `json:"nameMax"`
		CredentialAutocomplete []string `json:"credentialAutocomplete"`
	}{opt, id, first, l.NameMax, l.CredentialAutocomplete}
	var s actSample
	if err := w.invokeLocal(ctx, "actSample", mustJSON(req), &s); err != nil {
		return s, err
	}
	if s.BoxPtr != nil {
		s.Box = *s.BoxPtr
	}
	return s, nil
}

// AwaitFrame waits, in the top page, for the next animation frame, or
// actionable_frame_wait_ms where frames do not run (a hidden tab).
func (w *World) AwaitFrame(ctx context.Context) error {
	_, err := w.callAwait(ctx, `function(ms){return new Promise(function(r){var d=false;var f=function(){if(!d){d=true;r(true)}};requestAnimationFrame(f);setTimeout(f,ms)})}`, limits.ActionableFrameWaitMsMax)
	return err
}

func refusal(f actionable.Failure, s actSample, waited time.Duration) error {
	e := &Error{Op: "actionable", Waited: waited}
	switch f {
	case actionable.FailHidden:
		e.Kind, e.Detail = KindHidden, "the element is not visible"
	case actionable.FailDisabled:
		e.Kind, e.Detail = KindDisabled, "the control is disabled"
	case actionable.FailCovered:
		e.Kind, e.Detail, e.Role, e.Name = KindObscured, "another element covers it", s.CoverRole, s.CoverName
	case actionable.FailDetached:
		e.Kind, e.Detail = KindStale, "the element was removed from the document"
	default:
		e.Kind, e.Detail = KindUnstable, "the target kept moving (its box changed between animation frames)"
	}
	return e
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}
