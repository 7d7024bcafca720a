package governance

import (
	"sync"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

// Monitor mode (policy `mode: "monitor"`): a layer in monitor mode refuses
// nothing. Each refusal it alone would make is noted on the call's watch
// instead, and the check goes on to the layers below, so the call proceeds
// under the others. The pipeline reports the notes in the result's
// would_deny fact and the audit.

// watch collects one call's would-deny decisions.
type watch struct {
	mu   sync.Mutex
	seen map[surface.WouldDeny]bool
	list []surface.WouldDeny
}

func (w *watch) add(d surface.WouldDeny) {
	if w == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.seen[d] { // a page admitted twice in one call is one decision
		return
	}
	if w.seen == nil {
		w.seen = map[surface.WouldDeny]bool{}
	}
	w.seen[d] = true
	w.list = append(w.list, d)
}

// refuse is how a layer's denial is made: the refusal itself, or, for a
// layer in monitor mode, a note on the watch and nil.
func (a *Authority) refuse(l Layer, r *surface.Refusal) *surface.Refusal {
	if !l.Monitor {
		return r
	}
	d := surface.WouldDeny{Reason: r.Reason, Layer: l.Name, Capability: r.Capability, Host: r.Host}
	if r.DataFlow != nil {
		d.From = r.DataFlow.From
	}
	a.watch.add(d)
	return nil
}

// Watched is the authority with a fresh watch: a call takes one as it
// starts, so its result reports only its own would-deny decisions.
func (a *Authority) Watched() *Authority {
	n := *a
	n.watch = &watch{}
	return &n
}

// WouldDenied lists the call's would-deny decisions, in the order made.
func (a *Authority) WouldDenied() []surface.WouldDeny {
	if a == nil || a.watch == nil {
		return nil
	}
	a.watch.mu.Lock()
	defer a.watch.mu.Unlock()
	return append([]surface.WouldDeny(nil), a.watch.list...)
}

// Monitored names the configured layers in monitor mode.
func (a *Authority) Monitored() []string {
	var out []string
	for _, l := range a.layers {
		if l.Monitor {
			out = append(out, l.Name)
		}
	}
	return out
}
