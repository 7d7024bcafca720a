package tools

import (
	"context"
	"errors"
	"strconv"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
	"github.com/ghostlight-dev/ghostlight/runtime/boundary"
	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/input"
	"github.com/ghostlight-dev/ghostlight/runtime/browser/recorder"
	"github.com/ghostlight-dev/ghostlight/runtime/language"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
	"github.com/ghostlight-dev/ghostlight/runtime/recordings"
	"github.com/ghostlight-dev/ghostlight/runtime/refusal"
	"github.com/ghostlight-dev/ghostlight/runtime/tools/act"
	"github.com/ghostlight-dev/ghostlight/runtime/tools/outcome"
	"github.com/ghostlight-dev/ghostlight/runtime/tools/person"
	"github.com/ghostlight-dev/ghostlight/runtime/uploads"
)

// recs is the session's recordings (runtime/recordings), made on first use.
func (s *session) recs() *recordings.Store {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.recordings == nil {
		s.recordings = recordings.New(s.ws.ID(), s.h.b.Replica())
	}
	return s.recordings
}

// BrowserRecord records a tab's screencast into memory and delivers it as a
// GIF. Frames and GIF bytes never reach disk, logs or audit (a download is
// the browser's own file).
func (h *Handler) BrowserRecord(ctx context.Context, a *surface.BrowserRecordArgs) (*surface.BrowserRecordFacts, surface.Outcome) {
	s := h.session(ctx)
	ctx, cancel := deadline(ctx, 0)
	defer cancel()
	if a.Branch() == surface.BrowserRecordBranchStart {
		return s.recordStart(ctx, a)
	}
	if inv := pipeline.FromContext(ctx); a.Download && (inv == nil || inv.Authority == nil || !inv.Authority.AllowsDownloads()) {
		// Checked before anything changes: a save must not auto-stop and
		// then refuse.
		return nil, outcome.Refused(boundary.DownloadsDenied(inv))
	}
	rec, r := s.recs().Resolve(a.Recording)
	if r != nil {
		return nil, outcome.Refused(r)
	}
	st := rec.R.Status()
	f := &surface.BrowserRecordFacts{Tab: rec.Tab.Handle(), Recording: rec.Handle}
	switch a.Branch() {
	case surface.BrowserRecordBranchStatus:
		fillStatus(f, st)
		return f, outcome.Done(language.RecordStatus(rec.Handle, f.State, f.StopDeadlineMs, f.RetentionMs), "", surface.EffectNone, true)
	case surface.BrowserRecordBranchDiscard:
		already := !recordings.Live(st.State)
		rec.R.Discard()
		fillStatus(f, rec.R.Status())
		eff := surface.EffectApplied
		if already {
			eff = surface.EffectNone
		}
		return f, outcome.Done(language.RecordDiscarded(rec.Handle, already), "", eff, true)
	}
	if !recordings.Live(st.State) {
		return nil, outcome.Refused(unavailable(rec.Handle, st.State))
	}
	switch a.Branch() {
	case surface.BrowserRecordBranchStop:
		already := st.State == recorder.StateStopped
		rec.R.Stop(ctx, recorder.StopRequested)
		fillStatus(f, rec.R.Status())
		eff := surface.EffectApplied
		if already {
			eff = surface.EffectNone
		}
		return f, outcome.Done(language.RecordStopped(rec.Handle, already, f.RetentionMs), "", eff, true)
	}
	return s.recordSave(ctx, a, rec, f)
}

func unavailable(handle, state string) *surface.Refusal {
	return &surface.Refusal{Reason: surface.ReasonRecordingUnavailable, Pointer: "/recording",
		Message: language.RecordingErased(handle, state)}
}

func fillStatus(f *surface.BrowserRecordFacts, st recorder.Status) {
	f.State, f.StopReason = st.State, st.StopReason
	f.StopDeadlineMs = int(st.StopDeadline.Milliseconds())
	f.RetentionMs = int(st.RetentionLeft.Milliseconds())
	f.FramesKept, f.FramesCaptured = st.FramesKept, st.FramesCaptured
	f.DurationMs = int(st.Duration.Milliseconds())
}

// recordStart starts a screencast of the tab's page.
func (s *session) recordStart(ctx context.Context, a *surface.BrowserRecordArgs) (*surface.BrowserRecordFacts, surface.Outcome) {
	t, r := s.tab(ctx, a.Tab, "")
	if r != nil {
		return nil, outcome.Refused(r)
	}
	rs := s.recs()
	if old := rs.ActiveOn(t); old != nil {
		return nil, outcome.Refused(&surface.Refusal{Reason: surface.ReasonInvalidArguments, Tab: t.Handle(),
			Message: language.AlreadyRecording(old.Handle)})
	}
	var rec *recorder.Recorder
	r = s.onTab(ctx, t, func(ctx context.Context) *surface.Refusal {
		page := t.Page()
		if page == nil {
			return refusal.For(&browser.Error{Kind: browser.KindTabGone, Op: "record", Tab: t.Handle()}, 0)
		}
		var err error
		// Frames of a document the person typed a credential into are never
		// kept: a card number or a code shows in plain sight.
		held, tag := person.Recording(s, t)
		if rec, err = recorder.StartTagged(ctx, page, recordings.Limits, held, tag); err != nil {
			return refusal.For(err, surface.TimeoutMsDefault)
		}
		return nil
	})
	if r != nil {
		return nil, outcome.Refused(r)
	}
	handle := rs.Add(t, rec).Handle
	f := &surface.BrowserRecordFacts{Tab: t.Handle(), Recording: handle}
	fillStatus(f, rec.Status())
	f.StopDeadlineMs = surface.RecordMsMax
	return f, outcome.Done(language.RecordStarted(f.Tab, handle, f.StopDeadlineMs), "", surface.EffectApplied, false)
}

// recordSave stops an active recording, encodes the GIF in memory and
// delivers it to the client or to a file input.
func (s *session) recordSave(ctx context.Context, a *surface.BrowserRecordArgs, rec *recordings.Entry, f *surface.BrowserRecordFacts) (*surface.BrowserRecordFacts, surface.Outcome) {
	stopped := false
	pipeline.FromContext(ctx).Stage(language.SavingRecording) // progress a client sees
	if rec.R.Status().State == recorder.StateRecording {
		rec.R.Stop(ctx, recorder.StopSaved)
		stopped = true
	}
	dropped := person.DropFrames(ctx, s, rec)
	g, err := rec.R.Encode(surface.ImageBytesMax)
	if err != nil {
		st := rec.R.Status()
		if dropped > 0 && err == recorder.ErrUnavailable && recordings.Live(st.State) {
			return nil, outcome.Refused(person.FramesRefusal(rec.Tab))
		}
		if err == recorder.ErrTooLarge {
			return nil, outcome.Refused(&surface.Refusal{Reason: surface.ReasonRecordingUnavailable, Pointer: "/recording", Rule: surface.RuleMaximum,
				Limit: strconv.Itoa(surface.ImageBytesMax), Message: language.MsgReplayTooBig})
		}
		if !recordings.Live(st.State) {
			return nil, outcome.Refused(unavailable(rec.Handle, st.State))
		}
		return nil, outcome.Refused(&surface.Refusal{Reason: surface.ReasonRecordingUnavailable, Pointer: "/recording", Message: language.MsgRecordingEmpty})
	}
	if dropped > 0 {
		pipeline.FromContext(ctx).Note(language.FramesWithheldForSecret(dropped))
	}
	fillStatus(f, rec.R.Status())
	f.DurationMs = int(g.Duration.Milliseconds())
	f.FramesKept, f.FramesCaptured = g.FramesKept, g.FramesCaptured
	f.Bytes, f.Width, f.Height = len(g.Data), g.Width, g.Height
	reduced := g.Scaled || g.Thinned
	if a.Download {
		return s.recordDownload(ctx, rec, f, g.Data, reduced)
	}
	if a.Target == "" && a.Selector == nil {
		f.Delivery = "client"
		eff := surface.EffectNone
		if stopped {
			eff = surface.EffectApplied
		}
		out := outcome.Done(language.RecordSaved(rec.Handle, f.DurationMs, f.Delivery, "", reduced), "", eff, true)
		out.Image = &surface.Image{MIME: "image/gif", Data: g.Data}
		return f, out
	}
	if r := uploads.CheckSizes([]int64{int64(len(g.Data))}, locator(a.Selector, "/target", "/selector")); r != nil {
		return nil, outcome.Refused(r)
	}
	f.Delivery = "target"
	// A selector names no tab: it looks in the recorded tab.
	recTab := ""
	if a.Selector != nil {
		recTab = rec.Tab.Handle()
	}
	t, r := s.tab(ctx, recTab, a.Target)
	if r != nil {
		return nil, outcome.Refused(r)
	}
	where := a.Target
	ac, ref := act.Perform(ctx, s, t, func(ctx context.Context, ac *act.Act) *surface.Refusal {
		fi, el, r := s.fileInput(ctx, ac, &surface.BrowserUploadArgs{Target: a.Target, Selector: a.Selector}, &surface.BrowserUploadFacts{})
		if r == nil && a.Selector != nil {
			where = language.Target(el, s.h.names)
		}
		if r != nil {
			return r
		}
		defer release(ctx, fi)
		err := ac.Dispatch(ctx, func(ctx context.Context) (input.Effect, error) {
			return fi.Attach(ctx, "recording.gif", "image/gif", g.Data)
		})
		if input.KindOf(err) == input.KindInvalidArgument {
			return &surface.Refusal{Reason: surface.ReasonInvalidArguments, Pointer: locator(a.Selector, "/target", "/selector"), Message: language.MsgReplayNotTaken}
		}
		return act.InputRefusal(ctx, err, 0)
	})
	if ref != nil || !ac.Dispatched() {
		if ref == nil {
			ref = &surface.Refusal{Reason: surface.ReasonInternal, Message: language.MsgReplayNotAttached}
		}
		return nil, ac.Outcome("browser_record", ref, language.Act{}, false, 0, "the attachment")
	}
	text := language.RecordSaved(rec.Handle, f.DurationMs, f.Delivery, where, reduced)
	if d := ac.DialogType(); d != "" {
		// The input's own handlers opened a dialog: the save happened.
		text = language.DialogAfter(text, string(d))
	}
	out := outcome.Done(text, ac.Readiness(), surface.EffectApplied, false)
	return f, out
}

// recordDownload has the browser download the replay from the recorded tab's page, by
// the same path as a page's own download: the session's download directory, its bound
// and its report. The result names the file and its size, never a path.
func (s *session) recordDownload(ctx context.Context, rec *recordings.Entry, f *surface.BrowserRecordFacts, data []byte, reduced bool) (*surface.BrowserRecordFacts, surface.Outcome) {
	name := replayName(rec.Handle)
	d, err := rec.Tab.SaveAsDownload(boundary.Governed(ctx), name, "image/gif", data)
	s.ws.TakeDownloads() // this result reports it; the next one must not again
	if err != nil {
		if errors.Is(err, browser.ErrDownloadsDenied) {
			return nil, outcome.Refused(boundary.DownloadsDenied(pipeline.FromContext(ctx)))
		}
		return nil, outcome.Refused(refusal.For(err, surface.TimeoutMsDefault))
	}
	f.Delivery = "download"
	f.Bytes = int(d.Bytes)
	if d.State != surface.DownloadStateCompleted {
		// The browser did not finish the file: say so, with the download fact.
		return f, surface.Outcome{Status: surface.StatusFailed, Effect: surface.EffectUnknown,
			Refusal: &surface.Refusal{Reason: surface.ReasonRecordingUnavailable, Pointer: "/download", Download: boundary.DownloadFact(d, 1),
				Message: language.ReplayDownloadEnded(string(d.State))}}
	}
	return f, outcome.Done(language.RecordSaved(rec.Handle, f.DurationMs, f.Delivery, name, reduced), "", surface.EffectApplied, false)
}
