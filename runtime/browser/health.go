package browser

import (
	"context"

	"github.com/go-rod/rod/lib/proto"
)

// Ready is the readiness probe's question: the browser runs (it is started
// when none does, as a call would) and a browser context can be created and
// disposed on it. ctx bounds the wait; a start the probe gave up on goes on.
func (b *Browser) Ready(ctx context.Context) error {
	c, err := b.ensure(ctx)
	if err != nil {
		return err
	}
	res, err := proto.TargetCreateBrowserContext{DisposeOnDetach: true}.Call(c.call(ctx, ""))
	if err != nil {
		return classify(ctx, "ready", "", withConn(c, err))
	}
	// Disposed on a context of its own: a probe that timed out still
	// leaves no context behind.
	dctx, cancel := context.WithTimeout(c.ctx, b.cfg.CloseTimeout)
	defer cancel()
	if err := (proto.TargetDisposeBrowserContext{BrowserContextID: res.BrowserContextID}).Call(c.call(dctx, "")); err != nil {
		return classify(dctx, "ready", "", withConn(c, err))
	}
	return nil
}

// Gauges is what the executor holds now, for /metrics.
type Gauges struct {
	Workspaces int // workspaces (one per MCP session or stateless principal)
	Contexts   int // browser contexts of workspaces on the live connection
	Tabs       int // tabs the workspaces control
	Starts     int // browser starts and attaches since the server began (epochs)
}

// Gauges counts what the executor holds now.
func (b *Browser) Gauges() Gauges {
	b.mu.Lock()
	spaces := make([]*Workspace, 0, len(b.workspaces))
	for _, ws := range b.workspaces {
		spaces = append(spaces, ws)
	}
	g := Gauges{Workspaces: len(spaces), Starts: int(b.epoch)}
	b.mu.Unlock()
	for _, ws := range spaces {
		g.Tabs += ws.TabCount()
		if ws.ContextID() != "" {
			g.Contexts++
		}
	}
	return g
}
