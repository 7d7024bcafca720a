package browser

import (
	"context"
	"sync"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"github.com/ghostlight-dev/ghostlight/generated/limits"
)

// Lifecycle levels of one document, in the order a load passes through them.
const (
	levelLoading = iota
	levelInteractive
	levelComplete
)

func levelName(l int) string {
	switch l {
	case levelInteractive:
		return ReadyInteractive
	case levelComplete:
		return ReadyComplete
	}
	return ReadyLoading
}

// maxTrackedLoaders bounds the per-binding memory of lifecycle levels and committed
// loaders; only the current and in-flight documents matter.
const maxTrackedLoaders = limits.LoadersTrackedMax

// binding is a tab slot's attachment to one live page target on one connection. A slot
// gets a new binding when its tab is recreated; the old one stays gone forever.
type binding struct {
	tab      *Tab
	conn     *conn
	targetID proto.TargetTargetID

	// ctx ends with ErrTabClosed or ErrBrowserGone when the target goes away.
	ctx    context.Context
	cancel context.CancelCauseFunc

	ready     chan struct{} // closed once attach finished; then page or attachErr is set
	page      *rod.Page
	attachErr error

	mu        sync.Mutex
	session   proto.TargetSessionID
	frameID   proto.PageFrameID
	loaderID  proto.NetworkLoaderID         // current main-frame document
	levels    map[proto.NetworkLoaderID]int // lifecycle level per loader
	committed map[proto.NetworkLoaderID]bool
	navSeq    uint64 // main-frame commits, cross- or same-document
	url       string
	title     string
	dialog    *DialogState
	gone      error         // ErrTabClosed or ErrBrowserGone once gone
	kept      map[*byte]any // per-page state of callers (kept.go), freed when gone
	changed   chan struct{}
	guards    map[*guardEntry]struct{}
	visible   bool // last observed document.visibilityState == "visible"
	// freshBlank marks a tab this executor created at about:blank: its first navigation
	// drops that entry so "back" cannot land on a page the model never saw.
	freshBlank bool
	// blocks counts this tab's own navigations the host boundary stopped;
	// lastBlock is the latest (boundary.go).
	blocks    uint64
	lastBlock Blocked
	// followingLoad: a followAbortedLoad runs (abortedload.go).
	followingLoad bool
	zoom          int     // applied zoom percent; 0 means none applied
	baseDPR       float64 // device pixel ratio without zoom emulation, once measured

	// adopted: bound to a tab that was open before (adoptUnbound). In a browser the
	// person runs, such a tab is theirs: a session's end lets go of it, never closes it.
	adopted bool
}

func newBinding(c *conn, t *Tab, id proto.TargetTargetID) *binding {
	bd := &binding{
		tab:       t,
		conn:      c,
		targetID:  id,
		ready:     make(chan struct{}),
		frameID:   proto.PageFrameID(id), // a page target's main frame shares its id
		levels:    map[proto.NetworkLoaderID]int{},
		committed: map[proto.NetworkLoaderID]bool{},
		changed:   make(chan struct{}),
		guards:    map[*guardEntry]struct{}{},
		visible:   true,
	}
	bd.ctx, bd.cancel = context.WithCancelCause(c.ctx)
	return bd
}

// notify wakes every waiter; call with mu held.
func (bd *binding) notify() {
	close(bd.changed)
	bd.changed = make(chan struct{})
}

func (bd *binding) markGone(cause error) {
	bd.mu.Lock()
	if bd.gone != nil {
		bd.mu.Unlock()
		return
	}
	bd.gone = cause
	bd.kept = nil // what callers kept for this page goes with it (kept.go)
	for g := range bd.guards {
		g.cancel(cause)
	}
	bd.guards = map[*guardEntry]struct{}{}
	bd.notify()
	bd.mu.Unlock()
	bd.cancel(cause)
}

func (bd *binding) goneErr() error {
	bd.mu.Lock()
	defer bd.mu.Unlock()
	return bd.gone
}

// call is a proto client for this binding's page session.
func (bd *binding) call(ctx context.Context) *caller {
	bd.mu.Lock()
	s := bd.session
	bd.mu.Unlock()
	return bd.conn.call(ctx, s)
}

// wait blocks until pred (run with mu held) is true, the binding is gone, or ctx ends.
func (bd *binding) wait(ctx context.Context, pred func() bool) error {
	for {
		bd.mu.Lock()
		if bd.gone != nil {
			err := bd.gone
			bd.mu.Unlock()
			return err
		}
		if pred() {
			bd.mu.Unlock()
			return nil
		}
		ch := bd.changed
		bd.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return context.Cause(ctx)
		}
	}
}

// awaitReady waits for the attach to finish.
func (bd *binding) awaitReady(ctx context.Context) error {
	select {
	case <-bd.ready:
		return bd.attachErr
	case <-bd.ctx.Done():
		return context.Cause(bd.ctx)
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// level is the lifecycle level of the current document; call with mu held.
func (bd *binding) level() int { return bd.levels[bd.loaderID] }

// attach opens a flattened session on the target, turns on lifecycle events (Chromium
// replays the current document's events on enable, which seeds readiness) and reads the
// frame tree to seed the current document. It runs in its own goroutine.
func (bd *binding) attach(setup context.Context) {
	defer close(bd.ready)
	// rod's PageFromTarget binds the page to the connection's lifetime, not to a call;
	// it also enables the Page domain through rod so rod's own waits never disable it.
	page, err := bd.conn.rod.PageFromTarget(bd.targetID)
	if err != nil {
		bd.attachErr = err
		return
	}
	bd.mu.Lock()
	if bd.session == "" {
		bd.session = page.SessionID
	}
	bd.mu.Unlock()
	bd.conn.registerSession(bd, page.SessionID)
	bd.page = page

	ctx, cancel := context.WithCancelCause(setup)
	defer cancel(nil)
	stop := context.AfterFunc(bd.ctx, func() { cancel(context.Cause(bd.ctx)) })
	defer stop()
	c := bd.conn.call(ctx, page.SessionID)
	if err := (proto.PageSetLifecycleEventsEnabled{Enabled: true}).Call(c); err != nil {
		bd.attachErr = err
		return
	}
	tree, err := proto.PageGetFrameTree{}.Call(c)
	if err != nil {
		bd.attachErr = err
		return
	}
	f := tree.FrameTree.Frame
	bd.mu.Lock()
	bd.frameID = f.ID
	if bd.loaderID == "" { // no commit event arrived since attach: seed from the tree
		bd.commitLocked(f.LoaderID, f.URL+f.URLFragment)
	}
	bd.notify()
	bd.mu.Unlock()
}

// commitLocked records a new main-frame document; call with mu held.
func (bd *binding) commitLocked(loader proto.NetworkLoaderID, url string) {
	bd.url = url
	bd.navSeq++
	if loader == bd.loaderID {
		return
	}
	bd.loaderID = loader
	bd.tab.gen.Add(1)
	if len(bd.committed) >= maxTrackedLoaders {
		clear(bd.committed)
	}
	bd.committed[loader] = true
	for l := range bd.levels {
		if l != loader && len(bd.levels) >= maxTrackedLoaders {
			delete(bd.levels, l)
		}
	}
}

// noteBlocked records that the boundary stopped one of the tab's own
// navigations (read loop); a navigation command waiting on the tab wakes.
func (bd *binding) noteBlocked(b Blocked) {
	bd.mu.Lock()
	bd.blocks++
	bd.lastBlock = b
	bd.notify()
	bd.mu.Unlock()
}
