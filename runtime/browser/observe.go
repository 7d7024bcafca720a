package browser

// Observing a page's events in the browser's own order.
//
// Observers are called inside the connection's read loop, in the order the
// browser wrote the events, before any later response is delivered to its
// caller. So once a page-session command returns, every event the browser
// wrote before its reply has already been handed to every observer: Sync is
// built on exactly that, and it is what lets settling and diagnostics prove
// they have caught up instead of waiting and hoping.

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/go-rod/rod/lib/proto"
)

// Observer receives one event of a tab's page session. It runs in the
// connection's read loop: it must only record and wake, never wait, call the
// browser, or stop its own observation.
type Observer func(method string, params json.RawMessage)

// Observation is one registered Observer. It ends when Stop is called or the
// tab's page goes away.
type Observation struct {
	session proto.TargetSessionID
	fn      Observer
	done    chan struct{}
	once    sync.Once
	release func() bool
}

// observers holds the registered observations by page session. Session ids
// are unique across connections, so one registry serves every conn.
var observers = struct {
	mu        sync.RWMutex
	bySession map[proto.TargetSessionID]map[*Observation]struct{}
	n         atomic.Int64
}{bySession: map[proto.TargetSessionID]map[*Observation]struct{}{}}

// observable says which events observers may receive: page, network and
// console events. Bulky or chatty ones nobody decides on are left out.
func observable(method string) bool {
	switch method {
	case "Page.screencastFrame", "Network.dataReceived", "Network.requestWillBeSentExtraInfo",
		"Network.responseReceivedExtraInfo", "Network.resourceChangedPriority":
		return false
	case "Runtime.consoleAPICalled", "Runtime.exceptionThrown", "Input.dragIntercepted":
		return true
	}
	return strings.HasPrefix(method, "Page.") || strings.HasPrefix(method, "Network.")
}

// observing reports whether an event of this method must be decoded for
// observers (cheap when nobody observes).
func observing(method string) bool {
	return observers.n.Load() > 0 && observable(method)
}

// dispatchObserved hands one event to the observers of its session. It runs
// in the read loop.
func dispatchObserved(session proto.TargetSessionID, method string, params json.RawMessage) {
	if session == "" || !observable(method) {
		return
	}
	observers.mu.RLock()
	defer observers.mu.RUnlock()
	for o := range observers.bySession[session] {
		o.fn(method, params)
	}
}

// Observe registers fn for the events of the tab's current page (page,
// network and console events; a domain's events flow once it is enabled, see
// EnableNetwork). The observation ends with Stop or when the page goes away.
func (t *Tab) Observe(fn Observer) (*Observation, error) {
	bd := t.live()
	if bd == nil {
		return nil, &Error{Kind: KindTabGone, Op: "observe", Tab: t.handle}
	}
	select {
	case <-bd.ready:
	default:
		return nil, &Error{Kind: KindTabGone, Op: "observe", Tab: t.handle}
	}
	bd.mu.Lock()
	s := bd.session
	bd.mu.Unlock()
	if s == "" || bd.attachErr != nil {
		return nil, &Error{Kind: KindTabGone, Op: "observe", Tab: t.handle}
	}
	o := &Observation{session: s, fn: fn, done: make(chan struct{})}
	observers.mu.Lock()
	set := observers.bySession[s]
	if set == nil {
		set = map[*Observation]struct{}{}
		observers.bySession[s] = set
	}
	set[o] = struct{}{}
	observers.n.Add(1)
	observers.mu.Unlock()
	o.release = context.AfterFunc(bd.ctx, o.Stop)
	return o, nil
}

// Stop ends the observation. Once it returns, fn is not running and will not
// run again. Never call it from the Observer itself.
func (o *Observation) Stop() {
	o.once.Do(func() {
		observers.mu.Lock()
		if set := observers.bySession[o.session]; set != nil {
			delete(set, o)
			if len(set) == 0 {
				delete(observers.bySession, o.session)
			}
			observers.n.Add(-1)
		}
		observers.mu.Unlock()
		if o.release != nil {
			o.release()
		}
		close(o.done)
	})
}

// Done is closed when the observation has ended.
func (o *Observation) Done() <-chan struct{} { return o.done }

// Ended reports whether the observation has ended.
func (o *Observation) Ended() bool {
	select {
	case <-o.done:
		return true
	default:
		return false
	}
}

// Sync is the event barrier: one round trip through the tab's renderer on
// its page session. When it returns nil, every event the renderer emitted
// before it served the call, and every event the browser emitted before it
// relayed the reply, has been applied to the tab's state and handed to its
// observers. A dialog opening ends it with ErrDialogOpened (its cause); a busy
// page holds it until ctx ends.
func (t *Tab) Sync(ctx context.Context) error {
	bd := t.live()
	if bd == nil {
		return &Error{Kind: KindTabGone, Op: "sync", Tab: t.handle}
	}
	if err := bd.awaitReady(ctx); err != nil {
		return classify(ctx, "sync", t.handle, err)
	}
	g, stop := bd.guard(ctx)
	defer stop()
	// A literal: nothing of the page's runs or is read.
	if _, err := (proto.RuntimeEvaluate{Expression: "0", ReturnByValue: true}).Call(bd.call(g)); err != nil {
		return classify(g, "sync", t.handle, err)
	}
	return nil
}

// EnableNetwork turns the page's Network events on (once per page; rod keeps
// the record), with no payload buffered: request and response bodies (a
// submitted password, say) never reach Ghostlight.
func (t *Tab) EnableNetwork(ctx context.Context) error {
	bd := t.live()
	if bd == nil {
		return &Error{Kind: KindTabGone, Op: "network", Tab: t.handle}
	}
	if err := bd.awaitReady(ctx); err != nil {
		return classify(ctx, "network", t.handle, err)
	}
	bd.mu.Lock()
	s := bd.session
	bd.mu.Unlock()
	if _, on := networkOn.Load(s); on || bd.page != nil && bd.page.LoadState(&proto.NetworkEnable{}) {
		return nil
	}
	zero := 0
	if err := (proto.NetworkEnable{MaxTotalBufferSize: &zero, MaxResourceBufferSize: &zero, MaxPostDataSize: &zero}).Call(bd.call(ctx)); err != nil {
		return classify(ctx, "network", t.handle, err)
	}
	// A domain stays on for its session across documents: every later
	// action on the page saves the round trip. Nothing disables Network on
	// a page's own session (guards have sessions of their own).
	if _, dup := networkOn.LoadOrStore(s, struct{}{}); !dup {
		context.AfterFunc(bd.ctx, func() { networkOn.Delete(s) })
	}
	return nil
}

// networkOn holds the page sessions whose Network domain EnableNetwork
// turned on.
var networkOn sync.Map // proto.TargetSessionID → struct{}

// EnableRuntime turns the page's console and exception events on.
func (t *Tab) EnableRuntime(ctx context.Context) error {
	bd := t.live()
	if bd == nil {
		return &Error{Kind: KindTabGone, Op: "runtime", Tab: t.handle}
	}
	if err := bd.awaitReady(ctx); err != nil {
		return classify(ctx, "runtime", t.handle, err)
	}
	if err := (proto.RuntimeEnable{}).Call(bd.call(ctx)); err != nil {
		return classify(ctx, "runtime", t.handle, err)
	}
	return nil
}

// Changed returns a channel closed at the tab's next state change: a commit,
// a same-document move, a lifecycle step, a dialog opening or closing, or
// the tab going away. A tab with no live page returns a closed channel.
func (t *Tab) Changed() <-chan struct{} {
	bd := t.live()
	if bd == nil {
		c := make(chan struct{})
		close(c)
		return c
	}
	bd.mu.Lock()
	defer bd.mu.Unlock()
	return bd.changed
}
