package browser

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/cdp"
	"github.com/go-rod/rod/lib/proto"
	"github.com/go-rod/rod/lib/utils"

	"github.com/ghostlight-dev/ghostlight/runtime/browser/netwall"
)

// conn is one DevTools connection to one browser process. It ends exactly once (the
// websocket closed or Close ran); a later call dials a new conn.
type conn struct {
	b     *Browser
	epoch uint64
	rod   *rod.Browser
	ws    transport  // the websocket, or a launched browser's pipe (pipe.go)
	wsURL string     // "" over a pipe without an exposed port
	proc  *process   // nil when attached to a browser someone else started
	wire  *capDialer // caps each message read (wirecap.go)

	// ctx ends with cause ErrBrowserGone when the connection ends; every binding's
	// context derives from it, so in-flight work fails at once.
	ctx    context.Context
	cancel context.CancelCauseFunc

	stopped chan struct{} // closed once a dead connection's browser is torn down

	mu        sync.Mutex
	byTarget  map[proto.TargetTargetID]*binding
	bySession map[proto.TargetSessionID]*binding
	dead      bool
	// closed holds targets Ghostlight closed: the browser may still list them
	// for a moment, and they must never be adopted.
	closed map[proto.TargetTargetID]bool
	// guards are the auto-attached sessions the host boundary holds requests
	// on, by session and by target (attach.go); creating counts tabs being
	// created, whose paused target may attach before its id is known.
	guards        map[proto.TargetSessionID]*guard
	guardOf       map[proto.TargetTargetID]*guard
	creating      int
	guardWake     chan struct{} // closed (and replaced) when a guard attaches
	between       Boundary      // the latest call's configured boundary, for shared workers
	sharedBetween Boundary      // the latest configured boundary a shared (default-context) workspace's call brought (wall.go)
	dl            connDownloads // downloads by guid, behaviour per context (downloads.go)
	files         filesSeen     // whether the browser reads this server's files (files.go)

	// wall is the default context's policy proxy, when launched with one (wall.go).
	wall *netwall.Proxy
}

// dial opens the websocket and starts rod on top of a tapped transport, so that the
// executor sees every event in the browser's own order, before the response that
// follows it is delivered.
func (b *Browser) dial(ctx context.Context, wsURL string) (*conn, error) {
	return b.dialHeader(ctx, wsURL, nil)
}

// dialHeader is dial with headers for the websocket handshake (a remote
// endpoint's authorization, a Host Chromium accepts; endpoint.go).
func (b *Browser) dialHeader(ctx context.Context, wsURL string, header http.Header) (*conn, error) {
	c := b.newConn(wsURL)
	c.wire.tls = strings.HasPrefix(wsURL, "wss:")
	ws := &cdp.WebSocket{Dialer: c.wire}
	if err := ws.Connect(ctx, wsURL, header); err != nil {
		c.cancel(ErrBrowserGone)
		return nil, err
	}
	return b.run(ctx, c, ws)
}

func (b *Browser) newConn(wsURL string) *conn {
	c := &conn{
		b:         b,
		wsURL:     wsURL,
		stopped:   make(chan struct{}),
		byTarget:  map[proto.TargetTargetID]*binding{},
		bySession: map[proto.TargetSessionID]*binding{},
	}
	c.ctx, c.cancel = context.WithCancelCause(context.Background())
	c.wire = &capDialer{max: wireMessageMax}
	return c
}

// run starts rod on c over ws, an open transport.
func (b *Browser) run(ctx context.Context, c *conn, ws transport) (*conn, error) {
	c.ws = ws
	client := cdp.New().Logger(utils.LoggerQuiet).Start(&tapSocket{ws: ws, c: c})
	rb := rod.New().
		Client(&countingClient{inner: client, n: &b.calls, clock: &b.clock}).
		ControlURL(""). // ignore a "rod" environment variable: the client is explicit
		Context(c.ctx).
		NoDefaultDevice().
		Logger(utils.LoggerQuiet).
		SlowMotion(0).
		Trace(false).
		Monitor("")
	errc := make(chan error, 1)
	go func() { errc <- rb.Connect() }() // rod's Connect cannot take a deadline
	select {
	case err := <-errc:
		if err != nil {
			c.die()
			return nil, err
		}
	case <-ctx.Done():
		c.die()
		return nil, context.Cause(ctx)
	}
	c.rod = rb
	// Every page is paused at creation until its guard holds its requests.
	if err := c.startGuards(ctx); err != nil {
		c.die()
		return nil, err
	}
	return c, nil
}

// die ends the connection once: every binding learns it is gone and waiters wake.
func (c *conn) die() {
	c.mu.Lock()
	if c.dead {
		c.mu.Unlock()
		return
	}
	c.dead = true
	proc := c.proc
	binds := make([]*binding, 0, len(c.byTarget))
	for _, bd := range c.byTarget {
		binds = append(binds, bd)
	}
	c.byTarget = map[proto.TargetTargetID]*binding{}
	c.bySession = map[proto.TargetSessionID]*binding{}
	c.mu.Unlock()
	c.cancel(ErrBrowserGone)
	for _, bd := range binds {
		bd.markGone(ErrBrowserGone)
	}
	if c.ws != nil {
		_ = c.ws.Close()
	}
	c.b.connDied(c, proc)
}

// adoptProcess records the launched browser behind c; false when c already ended (the
// caller then stops the process itself).
func (c *conn) adoptProcess(p *process) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dead {
		return false
	}
	c.proc = p
	return true
}

// letGo releases a tab without closing it: its session is detached (dropping every
// emulation Ghostlight set on it) and the connection forgets it, without remembering
// it as closed, so the person keeps using it and a later session may adopt it again.
func (c *conn) letGo(ctx context.Context, bd *binding) {
	c.mu.Lock()
	if c.byTarget[bd.targetID] == bd {
		delete(c.byTarget, bd.targetID)
	}
	for s, b := range c.bySession {
		if b == bd {
			delete(c.bySession, s)
		}
	}
	c.mu.Unlock()
	bd.mu.Lock()
	session := bd.session
	bd.mu.Unlock()
	bd.markGone(ErrTabClosed)
	if session != "" {
		_ = proto.TargetDetachFromTarget{SessionID: session}.Call(c.call(ctx, ""))
	}
	// rod caches the page by target: a later adoption must attach afresh, not reuse
	// the detached session.
	c.rod.RemoveState(bd.targetID)
	c.unguard(ctx, bd.targetID) // the person's tab is no longer held (attach.go)
}

func (c *conn) alive() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return !c.dead
}

// call returns a proto client bound to ctx, for the browser session ("") or a page session.
func (c *conn) call(ctx context.Context, session proto.TargetSessionID) *caller {
	return &caller{ctx: ctx, rb: c.rod, session: session}
}

// caller adapts rod's browser to proto's Client for one context and session. Calls go
// through rod.Browser.Call so rod's record of enabled domains stays true for code that
// uses the same *rod.Page.
type caller struct {
	ctx     context.Context
	rb      *rod.Browser
	session proto.TargetSessionID
}

func (c *caller) Call(ctx context.Context, sessionID, method string, params any) ([]byte, error) {
	return c.rb.Call(ctx, sessionID, method, params)
}
func (c *caller) GetContext() context.Context         { return c.ctx }
func (c *caller) GetSessionID() proto.TargetSessionID { return c.session }

// countingClient counts protocol calls (tests prove "no browser call" with
// it) and the time they were outstanding (protocolclock.go).
type countingClient struct {
	inner *cdp.Client
	n     *atomic.Int64
	clock *protocolClock
}

func (cc *countingClient) Event() <-chan *cdp.Event { return cc.inner.Event() }
func (cc *countingClient) Call(ctx context.Context, sessionID, method string, params any) ([]byte, error) {
	cc.n.Add(1)
	cc.clock.enter()
	defer cc.clock.leave()
	return cc.inner.Call(ctx, sessionID, method, params)
}

// tapSocket hands the executor each event it tracks as the message is read, inside the
// client's read loop, and reports the end of the connection before pending calls fail.
type tapSocket struct {
	ws transport
	c  *conn
}

func (t *tapSocket) Send(data []byte) error {
	marked := sendMarks.in(data) // before Send, which masks data in place
	if err := t.ws.Send(data); err != nil {
		return err
	}
	sendMarks.written(marked) // a call ordered after these may go (sendmark.go)
	return nil
}

func (t *tapSocket) Read() ([]byte, error) {
	data, err := t.ws.Read()
	if err != nil {
		t.c.die()
		return nil, err
	}
	if method := eventMethod(data); method != "" && (trackedEvents[method] || observing(method)) {
		var msg struct {
			Method    string          `json:"method"`
			SessionID string          `json:"sessionId"`
			Params    json.RawMessage `json:"params"`
		}
		if json.Unmarshal(data, &msg) == nil {
			if trackedEvents[method] {
				t.c.onEvent(msg.Method, proto.TargetSessionID(msg.SessionID), msg.Params)
			}
			// Observers see the event after the tab's own state took it (observe.go).
			dispatchObserved(proto.TargetSessionID(msg.SessionID), msg.Method, msg.Params)
		}
	}
	return data, nil
}

var methodPrefix = []byte(`{"method":"`)

// eventMethod reads the method of an event without decoding the message: Chromium writes
// "method" first, so responses (which start with "id") and uninteresting events cost a
// prefix check.
func eventMethod(data []byte) string {
	if !bytes.HasPrefix(data, methodPrefix) {
		return ""
	}
	rest := data[len(methodPrefix):]
	end := bytes.IndexByte(rest, '"')
	if end <= 0 || end > 64 {
		return ""
	}
	return string(rest[:end])
}

var trackedEvents = map[string]bool{
	"Target.targetCreated":         true,
	"Target.targetDestroyed":       true,
	"Target.targetInfoChanged":     true,
	"Target.attachedToTarget":      true,
	"Target.detachedFromTarget":    true,
	"Page.frameNavigated":          true,
	"Page.navigatedWithinDocument": true,
	"Page.lifecycleEvent":          true,
	"Page.javascriptDialogOpening": true,
	"Page.javascriptDialogClosed":  true,
	"Inspector.detached":           true,
	"Inspector.targetCrashed":      true,
	"Target.targetCrashed":         true,
	"Page.windowOpen":              true,
	// Guard sessions (attach.go); on other sessions they are passed by.
	"Fetch.requestPaused":      true,
	"Network.webSocketCreated": true,
	// Downloads (downloads.go), on the browser session.
	"Browser.downloadWillBegin": true,
	"Browser.downloadProgress":  true,
}
