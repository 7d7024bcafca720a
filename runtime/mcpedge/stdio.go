package mcpedge

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/server"
)

// stdioBusy guards mcp-go's process-wide stdio session: two stdio sessions
// served at once in one process would share its notification queue.
var stdioBusy atomic.Bool

// StdioSession is the session id every stdio Call carries (mcp-go's fixed
// stdio session).
const StdioSession = "stdio"

// ServeStdio serves one MCP session, reading requests from in and writing
// only protocol messages to out, until in ends or ctx is done (both return
// nil). Calls still running then see their context cancelled, and
// Dispatcher.SessionClosed(StdioSession) runs once they have returned.
func (e *Edge) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	if !stdioBusy.CompareAndSwap(false, true) {
		return &Error{Kind: KindStdioBusy, Detail: "a stdio session is already being served in this process"}
	}
	defer stdioBusy.Store(false)

	w := &lineWriter{w: out, rw: e.rewriter, withheld: make(map[string]bool)}
	s := server.NewStdioServer(e.srv)
	s.SetErrorLogger(slog.NewLogLogger(e.log.Handler(), slog.LevelError))
	if e.pool > 0 {
		server.WithWorkerPoolSize(e.pool)(s)
	}
	ctx = context.WithValue(ctx, withholdKey{}, withholder(w))
	err := s.Listen(ctx, in, w)
	if err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return nil
	}
	return err
}
