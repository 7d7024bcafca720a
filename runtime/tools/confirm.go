package tools

import (
	"context"
	"sync"

	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/governance"
	"github.com/ghostlight-dev/ghostlight/runtime/handoff"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
)

// confirmDownloadKey is the action key of a download's approval.
const confirmDownloadKey = "\x00download"

// holdDownloads is gctx (the governed context of a call holding tab t)
// with downloads held for the person when confirm.downloads applies on
// t's page and no answer approves one there: a download the call starts
// is then refused before a byte is kept, its result says why, and the
// tab's handoff opens so the person can approve the repeat (answerable
// like an action). Downloads are started by the page, after dispatch, so
// they cannot wait before it as an action does.
func (s *session) holdDownloads(ctx context.Context, t *browser.Tab, gctx context.Context) context.Context {
	inv := pipeline.FromContext(ctx)
	if inv == nil || inv.Authority == nil || !inv.Authority.AllowsDownloads() {
		return gctx
	}
	r := inv.Authority.ConfirmsDownloads(t.URL())
	if r == nil {
		return gctx
	}
	session, tab, gen := s.ws.ID(), t.Handle(), t.Generation()
	if s.h.person.Decide(session, tab, confirmDownloadKey, gen) == governance.ConfirmRun {
		return gctx
	}
	r.Tab = tab
	hs := &s.h.held
	// The handoff opens only once a download was held (boundary.CarryDownloads),
	// without asking the client: the result is being written by then.
	quiet := context.WithValue(context.WithoutCancel(ctx), elicitKey{}, Elicit(nil))
	hs.mu.Lock()
	if hs.dlAsk == nil {
		hs.dlAsk = map[*pipeline.Invocation]func(){}
	}
	hs.dlAsk[inv] = func() {
		s.Ask(quiet, t, r, handoff.KindConfirm, s.h.person.Recorder(session, tab, confirmDownloadKey, gen))
	}
	hs.mu.Unlock()
	return browser.WithDownloads(gctx, browser.DownloadPolicy{Allow: false, Held: true})
}

// askHeldDownload opens the handoff for a download the call held, once
// its result says so; forgetHeld drops the call's pending one.
func (s *session) askHeldDownload(inv *pipeline.Invocation, held bool) {
	hs := &s.h.held
	hs.mu.Lock()
	fn := hs.dlAsk[inv]
	delete(hs.dlAsk, inv)
	hs.mu.Unlock()
	if fn != nil && held {
		fn()
	}
}

// heldDownloads is, per call, the handoff to open if a download it starts
// is held (holdDownloads, askHeldDownload).
type heldDownloads struct {
	mu    sync.Mutex
	dlAsk map[*pipeline.Invocation]func()
}
