package browser

import (
	"context"
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
	calls atomic.Int64  // protocol calls made (ProtocolCalls)
	clock protocolClock // time with a call outstanding (ProtocolBusy)

	// scripted: the origins the model's script ran on, per context (scripted.go).
	scripted scriptedSites

	mu         sync.Mutex
	conn       *conn
	epoch      uint64
	starting   *startAttempt
	workspaces map[string]*Workspace
	handles    map[string]*Tab
	closed     bool
	conns      []*conn // connections whose teardown Close must wait for
	// startedWith is the startup posture of the latest start attempt (set
	// by connect, read by start: one attempt runs at a time).
	startedWith string
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
		clock:      protocolClock{now: time.Now},
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

// DevToolsURL is the DevTools websocket URL of the live connection ("" when
// there is none, or the browser was launched without Config.ExposeDevToolsPort:
// it is driven over a pipe), for a benchmark that drives the same browser beside
// Ghostlight.
func (b *Browser) DevToolsURL() string {
	b.mu.Lock()
	c := b.conn
	b.mu.Unlock()
	if c == nil || !c.alive() {
		return ""
	}
	return c.wsURL
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
	if err == nil && b.cfg.OnStart != nil {
		b.cfg.OnStart(b.startedWith)
	}
	if err == nil && b.cfg.OnAttach != nil && c.proc == nil {
		b.cfg.OnAttach(c.wsURL) // a browser someone else started: its endpoint is a port
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
	if cfg.StartupNow != nil {
		if m := cfg.StartupNow(); m != "" {
			cfg.Startup = m // a posture the policy changed applies from this start
		}
	}
	defer func() { b.startedWith = cfg.Startup }() // one start at a time (ensure)
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
	holder := &connHolder{}
	wall, err := b.startSharedWall(holder) // the default context's proxy (wall.go)
	if err != nil {
		return nil, &Error{Kind: KindLaunchFailed, Op: "start", Browsers: []Installed{bin}, Err: err}
	}
	cfg.wallURL = wall.URL()
	proc, u, err := launch(ctx, cfg, bin.Path)
	if err != nil {
		_ = wall.Close()
		return nil, &Error{Kind: KindLaunchFailed, Op: "start", Browsers: []Installed{bin}, Err: err}
	}
	var c *conn
	if proc.pipe != nil {
		c, err = b.dialPipe(ctx, proc.pipe, u)
	} else {
		c, err = b.dial(ctx, u)
	}
	if err != nil {
		_ = wall.Close()
		_ = proc.stop(cfg.CloseTimeout)
		return nil, &Error{Kind: KindLaunchFailed, Op: "start", Browsers: []Installed{bin}, Err: err}
	}
	holder.set(c)
	c.mu.Lock()
	c.wall = wall
	c.mu.Unlock()
	c.keepWall(wall)
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
	ep, err := resolveEndpoint(ctx, b.cfg.Endpoint)
	if err == nil {
		var c *conn
		c, err = b.dialHeader(ctx, ep.ws, ep.header)
		if hostRefused(err) { // a browser reached by name: Host as its address
			var host string
			if host, err = addressHost(ctx, EndpointHost(ep.ws)); err == nil {
				c, err = b.dialHeader(ctx, ep.ws, withHeader(ep.header, "Host", host))
			}
		}
		if err == nil {
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
				ws.disposeContext(ctx, c)
			}
		}
		c.die()
	}
	b.waitStopped()
	for _, ws := range wss {
		ws.releaseDownloads(ctx, nil) // download directories go with the server (downloads.go)
	}
	return nil
}

// Workspace returns the workspace for id (one per MCP session), creating it on first use.
// Creating one does not start the browser.
// Its isolation is the policy's when it is made (Config.IsolationNow), for its whole life.
func (b *Browser) Workspace(id string) *Workspace {
	b.mu.Lock()
	ws := b.workspaces[id]
	b.mu.Unlock()
	if ws != nil {
		return ws
	}
	iso := b.cfg.Isolation
	if b.cfg.IsolationNow != nil { // read outside b.mu: it may stat policy files
		if v := b.cfg.IsolationNow(); v == IsolationSession || v == IsolationShared {
			iso = v
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if ws := b.workspaces[id]; ws != nil {
		return ws
	}
	ws = &Workspace{b: b, id: id, byHandle: map[string]*Tab{}, isolation: iso}
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
	ws.closeSpares(ctx, c)
	if c != nil && c.alive() {
		ws.closeTabs(ctx, c, tabs)
		// Its context goes too, with anything its pages still hold open.
		ws.disposeContext(ctx, c)
	}
	ws.releaseDownloads(ctx, c) // its download directory goes with it (downloads.go)
	if ws.isolated() {
		b.scripted.forget(ws.siteKey()) // its context, and what a script left there, is gone
	}
	b.mu.Lock()
	for _, t := range tabs {
		delete(b.handles, t.handle)
	}
	b.mu.Unlock()
	return nil
}

// newHandle is in tabhandle.go.

// ProtocolCalls is how many DevTools calls the server has made, across
// connections: tests prove "no browser call" with it, and the benchmark
// counts each step's round trips.
func (b *Browser) ProtocolCalls() int64 { return b.calls.Load() }

// ProtocolBusy is how long, in all, at least one DevTools call was
// outstanding, across connections: the benchmark's measure of how much of a
// step's time was spent waiting on the browser.
func (b *Browser) ProtocolBusy() time.Duration { return b.clock.read() }
