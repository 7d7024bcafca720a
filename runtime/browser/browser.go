package browser

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Browser is the executor's handle on one browser: started lazily, relaunched after it
// dies, shared by every workspace. It knows nothing of MCP or governance.
type Browser struct {
	cfg   Config
	log   *slog.Logger
	calls atomic.Int64 // protocol calls made, for tests

	mu         sync.Mutex
	conn       *conn
	epoch      uint64
	starting   *startAttempt
	workspaces map[string]*Workspace
	handles    map[string]*Tab
	closed     bool
	conns      []*conn // connections whose teardown Close must wait for
}

type startAttempt struct {
	done chan struct{}
	conn *conn
	err  error
}

// New returns an executor for cfg. Nothing starts until a call needs a browser.
func New(cfg Config) *Browser {
	cfg = cfg.withDefaults()
	return &Browser{
		cfg:        cfg,
		log:        cfg.Logger,
		workspaces: map[string]*Workspace{},
		handles:    map[string]*Tab{},
	}
}

// Connected reports whether a live browser connection exists right now.
func (b *Browser) Connected() bool {
	b.mu.Lock()
	c := b.conn
	b.mu.Unlock()
	return c != nil && c.alive()
}

// ensure returns the live connection, starting (or restarting) the browser when there
// is none. Concurrent callers share one start; the start is bounded by LaunchTimeout, not
// by the caller's context, so a caller that gives up leaves no half-started browser.
func (b *Browser) ensure(ctx context.Context) (*conn, error) {
	for range 2 {
		b.mu.Lock()
		if b.closed {
			b.mu.Unlock()
			return nil, &Error{Kind: KindClosed, Op: "start"}
		}
		if b.conn != nil && b.conn.alive() {
			c := b.conn
			b.mu.Unlock()
			return c, nil
		}
		if b.starting == nil {
			b.starting = &startAttempt{done: make(chan struct{})}
			go b.start(b.starting)
		}
		st := b.starting
		b.mu.Unlock()
		select {
		case <-st.done:
		case <-ctx.Done():
			return nil, classify(ctx, "start", "", context.Cause(ctx))
		}
		if st.err != nil {
			return nil, st.err
		}
		if st.conn.alive() {
			return st.conn, nil
		}
		// It died between start and use: start once more.
	}
	return nil, &Error{Kind: KindBrowserGone, Op: "start"}
}

func (b *Browser) start(st *startAttempt) {
	ctx, cancel := context.WithTimeout(context.Background(), b.cfg.LaunchTimeout)
	defer cancel()
	t0 := time.Now()
	c, err := b.connect(ctx)
	b.mu.Lock()
	if err == nil && b.closed {
		err = &Error{Kind: KindClosed, Op: "start"}
		b.conns = append(b.conns, c)
		b.mu.Unlock()
		c.die()
		b.mu.Lock()
	}
	if err == nil {
		b.epoch++
		c.epoch = b.epoch
		b.conn = c
		live := b.conns[:0]
		for _, old := range b.conns {
			select {
			case <-old.stopped:
			default:
				live = append(live, old)
			}
		}
		b.conns = append(live, c)
		b.log.Info("browser connected", "epoch", c.epoch, "launched", c.proc != nil, "ms", time.Since(t0).Milliseconds())
	} else {
		b.log.Warn("browser start failed", "kind", KindOf(err).String(), "err", err)
	}
	st.conn, st.err = c, err
	b.starting = nil
	close(st.done)
	b.mu.Unlock()
}

// connect starts or attaches to a browser according to the startup mode: a configured
// endpoint is attached to (never launched) unless startup is auto; auto launches the
// configured browser, or the one installed; otherwise, or with several installed and
// none configured, a browser the person opened prepared for Ghostlight is attached to,
// and without one the start is refused with what the person must do.
func (b *Browser) connect(ctx context.Context) (*conn, error) {
	cfg := b.cfg
	switch cfg.Startup {
	case StartupAuto, StartupConnect, StartupManual:
	default:
		return nil, &Error{Kind: KindInvalidArgument, Op: "start", Err: errors.New("unknown startup mode " + cfg.Startup)}
	}
	if strings.TrimSpace(cfg.Endpoint) != "" && cfg.Startup != StartupAuto {
		return b.attachEndpoint(ctx)
	}
	found := FindBrowsers(cfg.Path)
	if cfg.Startup == StartupAuto {
		configured := cfg.Path != "" && len(found) > 0 && found[0].Path == cfg.Path
		if cfg.Path != "" && !configured {
			b.log.Warn("the configured browser is not an executable file; looking for installed ones", "browser", cfg.Path)
		}
		switch {
		case configured || len(found) == 1:
			return b.launchConn(ctx, found[0], found)
		case len(found) == 0:
			return nil, &Error{Kind: KindStartupManual, Op: "start", Remedy: RemedyGetBrowser}
		}
		// Several could serve and none is configured: the person says which, by
		// opening it.
	}
	return b.attachPrepared(ctx, found)
}

// launchConn launches bin with a private profile and connects to it.
func (b *Browser) launchConn(ctx context.Context, bin Installed, found []Installed) (*conn, error) {
	cfg := b.cfg
	proc, u, err := launch(ctx, cfg, bin.Path)
	if err != nil {
		return nil, &Error{Kind: KindLaunchFailed, Op: "start", Browsers: []Installed{bin}, Err: err}
	}
	c, err := b.dial(ctx, u)
	if err != nil {
		_ = proc.stop(cfg.CloseTimeout)
		return nil, &Error{Kind: KindLaunchFailed, Op: "start", Browsers: []Installed{bin}, Err: err}
	}
	if !c.adoptProcess(proc) {
		_ = proc.stop(cfg.CloseTimeout)
		return nil, &Error{Kind: KindLaunchFailed, Op: "start", Browsers: []Installed{bin}, Err: ErrBrowserGone}
	}
	go func() { // a browser that exits without closing the socket still ends the conn
		select {
		case <-proc.exited:
			c.die()
		case <-c.ctx.Done():
		}
	}()
	return c, nil
}

// attachEndpoint attaches to the configured endpoint; one that cannot be reached is
// reported as exactly that, with the connection error.
func (b *Browser) attachEndpoint(ctx context.Context) (*conn, error) {
	u, err := resolveEndpoint(ctx, b.cfg.Endpoint)
	if err == nil {
		var c *conn
		if c, err = b.dial(ctx, u); err == nil {
			return c, nil
		}
	}
	return nil, &Error{Kind: KindUnreachable, Op: "start", Endpoint: b.cfg.Endpoint, Err: connectionError(err)}
}

// attachPrepared attaches to a running browser the person opened prepared for this
// installation, or refuses naming what to open (or to prepare) first.
func (b *Browser) attachPrepared(ctx context.Context, found []Installed) (*conn, error) {
	var s Survey
	if b.cfg.Prepared != nil {
		s = b.cfg.Prepared.Survey(ctx, found)
	}
	if s.Live != "" {
		c, err := b.dial(ctx, s.Live)
		if err == nil {
			b.log.Info("attached to a prepared browser", "browser", s.LiveName)
			return c, nil
		}
		b.log.Warn("a prepared browser did not answer", "browser", s.LiveName, "err", err)
	}
	switch {
	case len(s.Prepared) > 0:
		return nil, &Error{Kind: KindStartupManual, Op: "start", Browsers: s.Prepared, Remedy: RemedyOpen}
	case s.Foreign:
		return nil, &Error{Kind: KindOwnedElsewhere, Op: "start", Browsers: found}
	case len(found) > 0:
		return nil, &Error{Kind: KindStartupManual, Op: "start", Browsers: found, Remedy: RemedyInstall}
	}
	return nil, &Error{Kind: KindStartupManual, Op: "start", Remedy: RemedyGetBrowserOpen}
}

// connDied runs once per connection when it ends: a launched browser is torn down in
// the background; c.stopped closes when that is done (Close waits for it).
func (b *Browser) connDied(c *conn, proc *process) {
	b.log.Warn("browser connection ended", "launched", proc != nil)
	if proc == nil {
		close(c.stopped)
		return
	}
	go func() {
		defer close(c.stopped)
		if err := proc.stop(b.cfg.CloseTimeout); err != nil {
			b.log.Warn("browser teardown incomplete", "err", err)
		}
	}()
}

// waitStopped waits for every connection this executor made to finish its teardown.
func (b *Browser) waitStopped() {
	b.mu.Lock()
	conns := append([]*conn(nil), b.conns...)
	b.mu.Unlock()
	for _, c := range conns {
		<-c.stopped
	}
}

// Close ends the executor: tabs opened in a connected (not launched) browser are
// closed, a launched browser is shut down with its whole process group, and its profile
// is removed. Safe to call more than once.
func (b *Browser) Close() error {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		b.waitStopped()
		return nil
	}
	b.closed = true
	c := b.conn
	st := b.starting
	wss := make([]*Workspace, 0, len(b.workspaces))
	for _, ws := range b.workspaces {
		wss = append(wss, ws)
	}
	b.mu.Unlock()

	ctx, cancel := context.WithTimeout(context.Background(), b.cfg.CloseTimeout)
	defer cancel()
	if st != nil { // a start in flight finishes, sees closed, and tears itself down
		t := time.NewTimer(b.cfg.LaunchTimeout)
		select {
		case <-st.done:
		case <-t.C:
		}
		t.Stop()
	}
	if c != nil && c.alive() {
		if c.proc == nil {
			// Someone else's browser: close only what the workspaces opened or adopted.
			for _, ws := range wss {
				ws.closeAll(ctx, c)
			}
		}
		c.die()
	}
	b.waitStopped()
	return nil
}

// Workspace returns the workspace for id (one per MCP session), creating it on first use.
// Creating one does not start the browser.
func (b *Browser) Workspace(id string) *Workspace {
	b.mu.Lock()
	defer b.mu.Unlock()
	if ws := b.workspaces[id]; ws != nil {
		return ws
	}
	ws := &Workspace{b: b, id: id, byHandle: map[string]*Tab{}}
	b.workspaces[id] = ws
	return ws
}

// ReleaseWorkspace closes the workspace's tabs and forgets it and its handles.
func (b *Browser) ReleaseWorkspace(ctx context.Context, id string) error {
	b.mu.Lock()
	ws := b.workspaces[id]
	delete(b.workspaces, id)
	c := b.conn
	b.mu.Unlock()
	if ws == nil {
		return nil
	}
	tabs := ws.release()
	if c != nil && c.alive() {
		ws.closeTabs(ctx, c, tabs)
	}
	b.mu.Lock()
	for _, t := range tabs {
		delete(b.handles, t.handle)
	}
	b.mu.Unlock()
	return nil
}

var handleEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// newHandle mints a unique opaque tab handle and reserves it for t.
func (b *Browser) newHandle(t *Tab) string {
	var raw [5]byte
	for {
		_, _ = rand.Read(raw[:])
		h := "tab_" + handleEncoding.EncodeToString(raw[:])
		b.mu.Lock()
		if b.handles[h] == nil {
			b.handles[h] = t
			b.mu.Unlock()
			return h
		}
		b.mu.Unlock()
	}
}
