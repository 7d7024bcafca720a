package browser

import (
	"context"
	"time"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
)

// A page that starts a navigation while it is still loading (a script's
// location change during parsing, a link it clicks itself) and has that
// navigation aborted by the host boundary is left with no lifecycle event
// at all: Chromium holds the document's DOMContentLoaded and load while a
// navigation is pending, and sends neither once it is aborted, though the
// document goes on to complete (measured: readyState "complete",
// loadEventEnd 0, no "load" lifecycle event). Waiting for that event held
// the model's navigate to its whole timeout and then called a loaded page
// loading. So after such an abort the binding asks the page itself.
var (
	abortedLoadPoll = time.Duration(limits.AbortedLoadPollMsMax) * time.Millisecond
	abortedLoadWait = time.Duration(limits.AbortedLoadMsMax) * time.Millisecond
)

// followAbortedLoad reads the main frame's readyState until its current
// document is complete, the binding goes, or abortedLoadWait passes,
// raising the document's level as it goes; a document that replaces it in
// the meantime is followed in turn. One follows a binding at a time: a page
// aborting navigations in a loop starts no more.
func (bd *binding) followAbortedLoad(ctx context.Context) {
	bd.mu.Lock()
	if bd.followingLoad {
		bd.mu.Unlock()
		return
	}
	bd.followingLoad = true
	bd.mu.Unlock()
	defer func() {
		bd.mu.Lock()
		bd.followingLoad = false
		bd.mu.Unlock()
	}()
	ctx, cancel := context.WithTimeout(ctx, abortedLoadWait)
	defer cancel()
	for {
		bd.mu.Lock()
		loader := bd.loaderID
		done := loader == "" || bd.levels[loader] >= levelComplete
		bd.mu.Unlock()
		if done {
			return
		}
		var out [1]string
		if err := bd.evalJSON(ctx, `JSON.stringify([document.readyState])`, &out); err == nil {
			lvl := levelLoading
			switch out[0] {
			case ReadyInteractive:
				lvl = levelInteractive
			case ReadyComplete:
				lvl = levelComplete
			}
			bd.mu.Lock()
			// A read that raced a commit may be the old document's: kept only
			// when the document did not change around it.
			if bd.loaderID == loader && lvl > bd.levels[loader] {
				bd.levels[loader] = lvl
				bd.notify()
			}
			bd.mu.Unlock()
		} else if bd.goneErr() != nil {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(abortedLoadPoll):
		}
	}
}
