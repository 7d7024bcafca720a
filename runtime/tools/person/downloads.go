package person

import (
	"context"
	"sync"

	"github.com/ghostlight-dev/ghostlight/runtime/browser"
	"github.com/ghostlight-dev/ghostlight/runtime/governance"
	"github.com/ghostlight-dev/ghostlight/runtime/handoff"
	"github.com/ghostlight-dev/ghostlight/runtime/pipeline"
)

// downloadKey is the action key of a download's approval.
const downloadKey = "\x00download"

// Downloads is, per call, the handoff to open if a download it starts is
// held (HoldDownloads, AskHeldDownload). Its zero value is ready.
type Downloads struct {
	mu  sync.Mutex
	ask map[*pipeline.Invocation]func()
}

// HoldDownloads is gctx (the governed context of a call holding tab t)
// with downloads held for the person when confirm.downloads applies on
// t's page and no answer approves one there: a download the call starts
// is then refused before a byte is kept, its result says why, and the
// tab's handoff opens so the person can approve the repeat (answerable
// like an action). Downloads are started by the page, after dispatch, so
// they cannot wait before it as an action does.
func HoldDownloads(ctx context.Context, s Session, t *browser.Tab, gctx context.Context) context.Context {
	inv := pipeline.FromContext(ctx)
	if inv == nil || inv.Authority == nil || !inv.Authority.AllowsDownloads() {
		return gctx
	}
	r := inv.Authority.ConfirmsDownloads(t.URL())
	if r == nil {
		return gctx
	}
	person := s.Person()
	session, tab, gen := s.Workspace().ID(), t.Handle(), t.Generation()
	if person.Decide(session, tab, downloadKey, gen) == governance.ConfirmRun {
		return gctx
	}
	r.Tab = tab
	ds := s.Downloads()
	// The handoff opens only once a download was held (boundary.CarryDownloads),
	// without asking the client: the result is being written by then.
	quiet := context.WithValue(context.WithoutCancel(ctx), elicitKey{}, Elicit(nil))
	ds.mu.Lock()
	if ds.ask == nil {
		ds.ask = map[*pipeline.Invocation]func(){}
	}
	ds.ask[inv] = func() {
		Ask(quiet, s, t, r, handoff.KindConfirm, person.Recorder(session, tab, downloadKey, gen))
	}
	ds.mu.Unlock()
	return browser.WithDownloads(gctx, browser.DownloadPolicy{Allow: false, Held: true})
}

// AskHeldDownload opens the handoff for a download the call inv held, once
// its result says so (held); either way it drops the call's pending one.
func AskHeldDownload(s Session, inv *pipeline.Invocation, held bool) {
	ds := s.Downloads()
	ds.mu.Lock()
	fn := ds.ask[inv]
	delete(ds.ask, inv)
	ds.mu.Unlock()
	if fn != nil && held {
		fn()
	}
}
