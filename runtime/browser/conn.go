package browser

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/cdp"
	"github.com/go-rod/rod/lib/proto"
	"github.com/go-rod/rod/lib/utils"
)

// conn is one DevTools connection to one browser process. It ends exactly once (the
// websocket closed or Close ran); a later call dials a new conn.
type conn struct {
	b     *Browser
	epoch uint64
	rod   *rod.Browser
	ws    *cdp.WebSocket
	wsURL string
	proc  *process // nil when attached to a browser someone else started

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
}

// dial opens the websocket and starts rod on top of a tapped transport, so that the
// executor sees every event in the browser's own order, before the response that
// follows it is delivered.
func (b *Browser) dial(ctx context.Context, wsURL string) (*conn, error) {
	c := &conn{
		b:         b,
		wsURL:     wsURL,
		stopped:   make(chan struct{}),
		byTarget:  map[proto.TargetTargetID]*binding{},
		bySession: map[proto.TargetSessionID]*binding{},
	}
	c.ctx, c.cancel = context.WithCancelCause(context.Background())
	ws := &cdp.WebSocket{}
	if err := ws.Connect(ctx, wsURL, nil); err != nil {
		c.cancel(ErrBrowserGone)
		return nil, err
	}
	c.ws = ws
	client := cdp.New().Logger(utils.LoggerQuiet).Start(&tapSocket{ws: ws, c: c})
	rb := rod.New().
		Client(&countingClient{inner: client, n: &b.calls}).
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

// countingClient counts protocol calls (tests prove "no browser call" with it).
type countingClient struct {
	inner *cdp.Client
	n     *atomic.Int64
}

func (cc *countingClient) Event() <-chan *cdp.Event { return cc.inner.Event() }
func (cc *countingClient) Call(ctx context.Context, sessionID, method string, params any) ([]byte, error) {
	cc.n.Add(1)
	return cc.inner.Call(ctx, sessionID, method, params)
}

// tapSocket hands the executor each event it tracks as the message is read, inside the
// client's read loop, and reports the end of the connection before pending calls fail.
type tapSocket struct {
	ws *cdp.WebSocket
	c  *conn
}

func (t *tapSocket) Send(data []byte) error { return t.ws.Send(data) }

func (t *tapSocket) Read() ([]byte, error) {
	data, err := t.ws.Read()
	if err != nil {
		t.c.die()
		return nil, err
	}
	if method := eventMethod(data); method != "" && trackedEvents[method] {
		var msg struct {
			Method    string          `json:"method"`
			SessionID string          `json:"sessionId"`
			Params    json.RawMessage `json:"params"`
		}
		if json.Unmarshal(data, &msg) == nil {
			t.c.onEvent(msg.Method, proto.TargetSessionID(msg.SessionID), msg.Params)
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
}
