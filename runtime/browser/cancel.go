package browser

import (
	"context"
	"errors"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
)

// stopWait bounds the Page.stopLoading a cancelled navigation sends: the
// call's own context has ended, and the tab must be free for the next one.
const stopWait = time.Duration(limits.StopLoadingMsMax) * time.Millisecond

// stopIfCancelled stops the tab's loading when the call was cancelled (not
// timed out) before its navigation committed: the client asked for the
// work to stop, and a provisional navigation would otherwise go on in the
// browser after the call answered. It reports whether it stopped one.
func (bd *binding) stopIfCancelled(ctx context.Context, committed bool) bool {
	if committed || !errors.Is(context.Cause(ctx), context.Canceled) {
		return false
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), stopWait)
	defer cancel()
	return proto.PageStopLoading{}.Call(bd.call(sctx)) == nil
}
